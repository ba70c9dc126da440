#include "converters/mtf/binary/well_known_strings.hpp"

#include <iterator>
#include <unordered_map>
#include <vector>

namespace mtf::mtfbin {

namespace {

// docs/mtf-format.md appendix C, in its order (a test checks that the two agree): the C
// functions of MPI as Open MPI 4.1's mpi.h declares them, and MPI's predefined
// communicators, sorted by their bytes; then the texts of its blocks.
constexpr std::string_view kStrings[] = {
    "MPI_Abort",
    "MPI_Accumulate",
    "MPI_Add_error_class",
    "MPI_Add_error_code",
    "MPI_Add_error_string",
    "MPI_Address",
    "MPI_Aint_add",
    "MPI_Aint_diff",
    "MPI_Allgather",
    "MPI_Allgatherv",
    "MPI_Alloc_mem",
    "MPI_Allreduce",
    "MPI_Alltoall",
    "MPI_Alltoallv",
    "MPI_Alltoallw",
    "MPI_Attr_delete",
    "MPI_Attr_get",
    "MPI_Attr_put",
    "MPI_Barrier",
    "MPI_Bcast",
    "MPI_Bsend",
    "MPI_Bsend_init",
    "MPI_Buffer_attach",
    "MPI_Buffer_detach",
    "MPI_COMM_SELF",
    "MPI_COMM_WORLD",
    "MPI_Cancel",
    "MPI_Cart_coords",
    "MPI_Cart_create",
    "MPI_Cart_get",
    "MPI_Cart_map",
    "MPI_Cart_rank",
    "MPI_Cart_shift",
    "MPI_Cart_sub",
    "MPI_Cartdim_get",
    "MPI_Close_port",
    "MPI_Comm_accept",
    "MPI_Comm_c2f",
    "MPI_Comm_call_errhandler",
    "MPI_Comm_compare",
    "MPI_Comm_connect",
    "MPI_Comm_create",
    "MPI_Comm_create_errhandler",
    "MPI_Comm_create_group",
    "MPI_Comm_create_keyval",
    "MPI_Comm_delete_attr",
    "MPI_Comm_disconnect",
    "MPI_Comm_dup",
    "MPI_Comm_dup_with_info",
    "MPI_Comm_f2c",
    "MPI_Comm_free",
    "MPI_Comm_free_keyval",
    "MPI_Comm_get_attr",
    "MPI_Comm_get_errhandler",
    "MPI_Comm_get_info",
    "MPI_Comm_get_name",
    "MPI_Comm_get_parent",
    "MPI_Comm_group",
    "MPI_Comm_idup",
    "MPI_Comm_join",
    "MPI_Comm_rank",
    "MPI_Comm_remote_group",
    "MPI_Comm_remote_size",
    "MPI_Comm_set_attr",
    "MPI_Comm_set_errhandler",
    "MPI_Comm_set_info",
    "MPI_Comm_set_name",
    "MPI_Comm_size",
    "MPI_Comm_spawn",
    "MPI_Comm_spawn_multiple",
    "MPI_Comm_split",
    "MPI_Comm_split_type",
    "MPI_Comm_test_inter",
    "MPI_Compare_and_swap",
    "MPI_Dims_create",
    "MPI_Dist_graph_create",
    "MPI_Dist_graph_create_adjacent",
    "MPI_Dist_graph_neighbors",
    "MPI_Dist_graph_neighbors_count",
    "MPI_Errhandler_c2f",
    "MPI_Errhandler_create",
    "MPI_Errhandler_f2c",
    "MPI_Errhandler_free",
    "MPI_Errhandler_get",
    "MPI_Errhandler_set",
    "MPI_Error_class",
    "MPI_Error_string",
    "MPI_Exscan",
    "MPI_Fetch_and_op",
    "MPI_File_c2f",
    "MPI_File_call_errhandler",
    "MPI_File_close",
    "MPI_File_create_errhandler",
    "MPI_File_delete",
    "MPI_File_f2c",
    "MPI_File_get_amode",
    "MPI_File_get_atomicity",
    "MPI_File_get_byte_offset",
    "MPI_File_get_errhandler",
    "MPI_File_get_group",
    "MPI_File_get_info",
    "MPI_File_get_position",
    "MPI_File_get_position_shared",
    "MPI_File_get_size",
    "MPI_File_get_type_extent",
    "MPI_File_get_view",
    "MPI_File_iread",
    "MPI_File_iread_all",
    "MPI_File_iread_at",
    "MPI_File_iread_at_all",
    "MPI_File_iread_shared",
    "MPI_File_iwrite",
    "MPI_File_iwrite_all",
    "MPI_File_iwrite_at",
    "MPI_File_iwrite_at_all",
    "MPI_File_iwrite_shared",
    "MPI_File_open",
    "MPI_File_preallocate",
    "MPI_File_read",
    "MPI_File_read_all",
    "MPI_File_read_all_begin",
    "MPI_File_read_all_end",
    "MPI_File_read_at",
    "MPI_File_read_at_all",
    "MPI_File_read_at_all_begin",
    "MPI_File_read_at_all_end",
    "MPI_File_read_ordered",
    "MPI_File_read_ordered_begin",
    "MPI_File_read_ordered_end",
    "MPI_File_read_shared",
    "MPI_File_seek",
    "MPI_File_seek_shared",
    "MPI_File_set_atomicity",
    "MPI_File_set_errhandler",
    "MPI_File_set_info",
    "MPI_File_set_size",
    "MPI_File_set_view",
    "MPI_File_sync",
    "MPI_File_write",
    "MPI_File_write_all",
    "MPI_File_write_all_begin",
    "MPI_File_write_all_end",
    "MPI_File_write_at",
    "MPI_File_write_at_all",
    "MPI_File_write_at_all_begin",
    "MPI_File_write_at_all_end",
    "MPI_File_write_ordered",
    "MPI_File_write_ordered_begin",
    "MPI_File_write_ordered_end",
    "MPI_File_write_shared",
    "MPI_Finalize",
    "MPI_Finalized",
    "MPI_Free_mem",
    "MPI_Gather",
    "MPI_Gatherv",
    "MPI_Get",
    "MPI_Get_accumulate",
    "MPI_Get_address",
    "MPI_Get_count",
    "MPI_Get_elements",
    "MPI_Get_elements_x",
    "MPI_Get_library_version",
    "MPI_Get_processor_name",
    "MPI_Get_version",
    "MPI_Graph_create",
    "MPI_Graph_get",
    "MPI_Graph_map",
    "MPI_Graph_neighbors",
    "MPI_Graph_neighbors_count",
    "MPI_Graphdims_get",
    "MPI_Grequest_complete",
    "MPI_Grequest_start",
    "MPI_Group_c2f",
    "MPI_Group_compare",
    "MPI_Group_difference",
    "MPI_Group_excl",
    "MPI_Group_f2c",
    "MPI_Group_free",
    "MPI_Group_incl",
    "MPI_Group_intersection",
    "MPI_Group_range_excl",
    "MPI_Group_range_incl",
    "MPI_Group_rank",
    "MPI_Group_size",
    "MPI_Group_translate_ranks",
    "MPI_Group_union",
    "MPI_Iallgather",
    "MPI_Iallgatherv",
    "MPI_Iallreduce",
    "MPI_Ialltoall",
    "MPI_Ialltoallv",
    "MPI_Ialltoallw",
    "MPI_Ibarrier",
    "MPI_Ibcast",
    "MPI_Ibsend",
    "MPI_Iexscan",
    "MPI_Igather",
    "MPI_Igatherv",
    "MPI_Improbe",
    "MPI_Imrecv",
    "MPI_Ineighbor_allgather",
    "MPI_Ineighbor_allgatherv",
    "MPI_Ineighbor_alltoall",
    "MPI_Ineighbor_alltoallv",
    "MPI_Ineighbor_alltoallw",
    "MPI_Info_c2f",
    "MPI_Info_create",
    "MPI_Info_delete",
    "MPI_Info_dup",
    "MPI_Info_f2c",
    "MPI_Info_free",
    "MPI_Info_get",
    "MPI_Info_get_nkeys",
    "MPI_Info_get_nthkey",
    "MPI_Info_get_valuelen",
    "MPI_Info_set",
    "MPI_Init",
    "MPI_Init_thread",
    "MPI_Initialized",
    "MPI_Intercomm_create",
    "MPI_Intercomm_merge",
    "MPI_Iprobe",
    "MPI_Irecv",
    "MPI_Ireduce",
    "MPI_Ireduce_scatter",
    "MPI_Ireduce_scatter_block",
    "MPI_Irsend",
    "MPI_Is_thread_main",
    "MPI_Iscan",
    "MPI_Iscatter",
    "MPI_Iscatterv",
    "MPI_Isend",
    "MPI_Issend",
    "MPI_Keyval_create",
    "MPI_Keyval_free",
    "MPI_Lookup_name",
    "MPI_Message_c2f",
    "MPI_Message_f2c",
    "MPI_Mprobe",
    "MPI_Mrecv",
    "MPI_Neighbor_allgather",
    "MPI_Neighbor_allgatherv",
    "MPI_Neighbor_alltoall",
    "MPI_Neighbor_alltoallv",
    "MPI_Neighbor_alltoallw",
    "MPI_Op_c2f",
    "MPI_Op_commutative",
    "MPI_Op_create",
    "MPI_Op_f2c",
    "MPI_Op_free",
    "MPI_Open_port",
    "MPI_Pack",
    "MPI_Pack_external",
    "MPI_Pack_external_size",
    "MPI_Pack_size",
    "MPI_Pcontrol",
    "MPI_Probe",
    "MPI_Publish_name",
    "MPI_Put",
    "MPI_Query_thread",
    "MPI_Raccumulate",
    "MPI_Recv",
    "MPI_Recv_init",
    "MPI_Reduce",
    "MPI_Reduce_local",
    "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block",
    "MPI_Register_datarep",
    "MPI_Request_c2f",
    "MPI_Request_f2c",
    "MPI_Request_free",
    "MPI_Request_get_status",
    "MPI_Rget",
    "MPI_Rget_accumulate",
    "MPI_Rput",
    "MPI_Rsend",
    "MPI_Rsend_init",
    "MPI_Scan",
    "MPI_Scatter",
    "MPI_Scatterv",
    "MPI_Send",
    "MPI_Send_init",
    "MPI_Sendrecv",
    "MPI_Sendrecv_replace",
    "MPI_Ssend",
    "MPI_Ssend_init",
    "MPI_Start",
    "MPI_Startall",
    "MPI_Status_c2f",
    "MPI_Status_f2c",
    "MPI_Status_set_cancelled",
    "MPI_Status_set_elements",
    "MPI_Status_set_elements_x",
    "MPI_T_category_changed",
    "MPI_T_category_get_categories",
    "MPI_T_category_get_cvars",
    "MPI_T_category_get_info",
    "MPI_T_category_get_num",
    "MPI_T_category_get_pvars",
    "MPI_T_enum_get_info",
    "MPI_T_enum_get_item",
    "MPI_T_pvar_get_info",
    "MPI_T_pvar_get_num",
    "MPI_T_pvar_handle_alloc",
    "MPI_T_pvar_handle_free",
    "MPI_T_pvar_read",
    "MPI_T_pvar_readreset",
    "MPI_T_pvar_reset",
    "MPI_T_pvar_session_create",
    "MPI_T_pvar_session_free",
    "MPI_T_pvar_start",
    "MPI_T_pvar_stop",
    "MPI_T_pvar_write",
    "MPI_Test",
    "MPI_Test_cancelled",
    "MPI_Testall",
    "MPI_Testany",
    "MPI_Testsome",
    "MPI_Topo_test",
    "MPI_Type_c2f",
    "MPI_Type_commit",
    "MPI_Type_contiguous",
    "MPI_Type_create_darray",
    "MPI_Type_create_f90_complex",
    "MPI_Type_create_f90_integer",
    "MPI_Type_create_f90_real",
    "MPI_Type_create_hindexed",
    "MPI_Type_create_hindexed_block",
    "MPI_Type_create_hvector",
    "MPI_Type_create_indexed_block",
    "MPI_Type_create_keyval",
    "MPI_Type_create_resized",
    "MPI_Type_create_struct",
    "MPI_Type_create_subarray",
    "MPI_Type_delete_attr",
    "MPI_Type_dup",
    "MPI_Type_extent",
    "MPI_Type_f2c",
    "MPI_Type_free",
    "MPI_Type_free_keyval",
    "MPI_Type_get_attr",
    "MPI_Type_get_contents",
    "MPI_Type_get_envelope",
    "MPI_Type_get_extent",
    "MPI_Type_get_extent_x",
    "MPI_Type_get_name",
    "MPI_Type_get_true_extent",
    "MPI_Type_get_true_extent_x",
    "MPI_Type_hindexed",
    "MPI_Type_hvector",
    "MPI_Type_indexed",
    "MPI_Type_lb",
    "MPI_Type_match_size",
    "MPI_Type_set_attr",
    "MPI_Type_set_name",
    "MPI_Type_size",
    "MPI_Type_size_x",
    "MPI_Type_struct",
    "MPI_Type_ub",
    "MPI_Type_vector",
    "MPI_Unpack",
    "MPI_Unpublish_name",
    "MPI_Wait",
    "MPI_Waitall",
    "MPI_Waitany",
    "MPI_Waitsome",
    "MPI_Win_allocate",
    "MPI_Win_allocate_shared",
    "MPI_Win_attach",
    "MPI_Win_c2f",
    "MPI_Win_call_errhandler",
    "MPI_Win_complete",
    "MPI_Win_create",
    "MPI_Win_create_dynamic",
    "MPI_Win_create_errhandler",
    "MPI_Win_create_keyval",
    "MPI_Win_delete_attr",
    "MPI_Win_detach",
    "MPI_Win_f2c",
    "MPI_Win_fence",
    "MPI_Win_flush",
    "MPI_Win_flush_all",
    "MPI_Win_flush_local",
    "MPI_Win_flush_local_all",
    "MPI_Win_free",
    "MPI_Win_free_keyval",
    "MPI_Win_get_attr",
    "MPI_Win_get_errhandler",
    "MPI_Win_get_group",
    "MPI_Win_get_info",
    "MPI_Win_get_name",
    "MPI_Win_lock",
    "MPI_Win_lock_all",
    "MPI_Win_post",
    "MPI_Win_set_attr",
    "MPI_Win_set_errhandler",
    "MPI_Win_set_info",
    "MPI_Win_set_name",
    "MPI_Win_shared_query",
    "MPI_Win_start",
    "MPI_Win_sync",
    "MPI_Win_test",
    "MPI_Win_unlock",
    "MPI_Win_unlock_all",
    "MPI_Win_wait",
    "MPI_Wtick",
    "MPI_Wtime",
};

// Then the texts of appendix C's blocks: the default state names and colours of Paraver
// traces (Extrae writes them into every .pcf).
constexpr std::string_view kParaverStates = R"(STATES
0    Idle
1    Running
2    Not created
3    Waiting a message
4    Blocking Send
5    Synchronization
6    Test/Probe
7    Scheduling and Fork/Join
8    Wait/WaitAll
9    Blocked
10    Immediate Send
11    Immediate Receive
12    I/O
13    Group Communication
14    Tracing Disabled
15    Others
16    Send Receive
17    Memory transfer
18    Profiling
19    On-line analysis
20    Remote memory access
21    Atomic memory operation
22    Memory ordering operation
23    Distributed locking
24    Overhead
25    One-sided op
26    Startup latency
27    Waiting links
28    Data copy
29    RTT
30    Allocating memory
31    Freeing memory


STATES_COLOR
0    {117,195,255}
1    {0,0,255}
2    {255,255,255}
3    {255,0,0}
4    {255,0,174}
5    {179,0,0}
6    {0,255,0}
7    {255,255,0}
8    {235,0,0}
9    {0,162,0}
10    {255,0,255}
11    {100,100,177}
12    {172,174,41}
13    {255,144,26}
14    {2,255,177}
15    {192,224,0}
16    {66,66,66}
17    {255,0,96}
18    {169,169,169}
19    {169,0,0}
20    {0,109,255}
21    {200,61,68}
22    {200,66,0}
23    {0,41,0}
24    {139,121,177}
25    {116,116,116}
26    {200,50,89}
27    {255,171,98}
28    {0,68,189}
29    {52,43,0}
30    {255,46,0}
31    {100,216,32}
)";

constexpr size_t kVersion4Count = std::size(kStrings) + 1;  // and Paraver's states

const std::vector<std::string_view>& allStrings() {
  static const std::vector<std::string_view> all = [] {
    std::vector<std::string_view> v(std::begin(kStrings), std::end(kStrings));
    v.push_back(kParaverStates);
    const std::span<const std::string_view> added = wellKnownStringsOfVersion5();
    v.insert(v.end(), added.begin(), added.end());
    return v;
  }();
  return all;
}

}  // namespace

std::span<const std::string_view> wellKnownStrings(uint32_t version) {
  const std::span<const std::string_view> all = allStrings();
  return version <= 4 ? all.first(kVersion4Count) : all;
}

std::optional<size_t> wellKnownIndex(std::string_view text) {
  static const std::unordered_map<std::string_view, size_t> index = [] {
    std::unordered_map<std::string_view, size_t> m;
    for (size_t i = 0; i < allStrings().size(); ++i) m.emplace(allStrings()[i], i);
    return m;
  }();
  const auto found = index.find(text);
  if (found == index.end()) return std::nullopt;
  return found->second;
}

}  // namespace mtf::mtfbin
