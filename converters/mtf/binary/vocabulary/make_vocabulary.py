#!/usr/bin/python3
"""Builds vocabulary.txt, the built-in vocabulary of archive version 6 (README.md here).

Usage: make_vocabulary.py MPI_H CL_H CUDA_INCLUDE_DIR > vocabulary.txt

Inputs (public headers, see README.md for versions and licenses): Open MPI's mpi.h (the MPI
standard's C bindings), Khronos' CL/cl.h, the CUDA toolkit's cuda_runtime_api.h and cuda.h.
The other blocks (TAU, Extrae, Score-P, OpenMP, PAPI, POSIX I/O) are written below from
those tools' public sources and documentation. The file is checked in: archives depend on
its exact bytes, so it is never regenerated silently (the build checks its checksum).
"""

import re
import sys


def unique(items):
    seen, out = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def mpi_functions(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    names = re.findall(r"\bOMPI_DECLSPEC\s+\w+\s*\*?\s*(MPI_[A-Z][a-z0-9_]+)\s*\(", text)
    return sorted(unique(n for n in names if not n.startswith("MPI_T_")))


def parameter_type(param):
    param = " ".join(param.split())
    if param in ("void", "..."):
        return param
    param = re.sub(r"\bCL_API_SUFFIX\w*", "", param)
    if "(" in param:  # a callback: keep the type as written, drop the name
        return re.sub(r"\(\s*CL_CALLBACK\s*\*\s*\w*\s*\)", "(*)", param)
    param = re.sub(r"\[\s*\]$", " *", param)
    param = re.sub(r"\s*\b\w+$", "", param)  # the parameter's name
    return re.sub(r"\s*\*", " *", param).replace("* *", "**").strip()


def opencl_prototypes(path):
    """As TAU names OpenCL calls: "ret name(types) C"."""
    text = re.sub(r"/\*.*?\*/", "", open(path, encoding="utf-8").read(), flags=re.S)
    found = re.findall(r"extern\s+CL_API_ENTRY\s+(?:CL_API_PREFIX\w*\s+)?([\w ]+?\*?)\s*"
                       r"CL_API_CALL\s+(cl\w+)\s*\((.*?)\)\s*CL_API_SUFFIX", text, re.S)
    out = []
    for ret, name, params in found:
        depth, parts, cur = 0, [], ""
        for ch in params:
            depth += ch == "("
            depth -= ch == ")"
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        types = ", ".join(parameter_type(p) for p in parts)
        out.append("%s %s(%s) C" % (" ".join(ret.split()), name, types))
    return unique(out)


def cuda_functions(include_dir):
    runtime = open(include_dir + "/cuda_runtime_api.h", encoding="utf-8").read()
    driver = open(include_dir + "/cuda.h", encoding="utf-8").read()
    rt = re.findall(r"CUDARTAPI\s+(cuda[A-Z]\w*)\s*\(", runtime)
    dr = re.findall(r"CUresult\s+CUDAAPI\s+(cu[A-Z]\w*)\s*\(", driver)
    return sorted(unique(re.sub(r"_v\d+$", "", n) for n in rt)), \
        sorted(unique(re.sub(r"_v\d+$", "", n) for n in dr))


POSIX_IO = """open open64 openat creat close read write pread pwrite pread64 pwrite64 readv writev
lseek lseek64 fsync fdatasync dup dup2 pipe stat fstat lstat unlink rename mkdir rmdir opendir
readdir closedir mmap munmap fcntl ioctl select poll socket connect accept bind listen send recv
sendto recvfrom fopen fopen64 fdopen freopen fclose fread fwrite fseek ftell rewind fflush fgets
fputs fgetc fputc fprintf fscanf printf scanf puts getc putc ungetc aio_read aio_write aio_return
aio_error aio_suspend aio_cancel lio_listio""".split()

PAPI_PRESETS = """L1_DCM L1_ICM L2_DCM L2_ICM L3_DCM L3_ICM L1_TCM L2_TCM L3_TCM CA_SNP CA_SHR CA_CLN
CA_INV CA_ITV L3_LDM L3_STM BRU_IDL FXU_IDL FPU_IDL LSU_IDL TLB_DM TLB_IM TLB_TL L1_LDM L1_STM
L2_LDM L2_STM BTAC_M PRF_DM L3_DCH TLB_SD CSR_FAL CSR_SUC CSR_TOT MEM_SCY MEM_RCY MEM_WCY STL_ICY
FUL_ICY STL_CCY FUL_CCY HW_INT BR_UCN BR_CN BR_TKN BR_NTK BR_MSP BR_PRC FMA_INS TOT_IIS TOT_INS
INT_INS FP_INS LD_INS SR_INS BR_INS VEC_INS RES_STL FP_STAL TOT_CYC LST_INS SYC_INS L1_DCH L2_DCH
L1_DCA L2_DCA L3_DCA L1_DCR L2_DCR L3_DCR L1_DCW L2_DCW L3_DCW L1_ICH L2_ICH L3_ICH L1_ICA L2_ICA
L3_ICA L1_ICR L2_ICR L3_ICR L1_ICW L2_ICW L3_ICW L1_TCH L2_TCH L3_TCH L1_TCA L2_TCA L3_TCA L1_TCR
L2_TCR L3_TCR L1_TCW L2_TCW L3_TCW FML_INS FAD_INS FDV_INS FSQ_INS FNV_INS FP_OPS SP_OPS DP_OPS
VEC_SP VEC_DP REF_CYC""".split()

# Extrae's paraver/pcf labels (Extrae, src/merger/paraver: labels.c, the *_prv_events.c files)
EXTRAE = """EVENT_TYPE
0    50000001    MPI Point-to-point
0    50000002    MPI Collective Comm
0    50000003    MPI Other
0    50000004    MPI One-sided
0    50000005    MPI I/O
VALUES
0   Outside MPI
0 End
1 Begin
0    40000001    Application
0    40000003    Flushing Traces
0    40000012    Tracing mode:
0    40000018    Tracing mode:
0    40000002    Trace initialization
1 Detailed
2 CPU Bursts
0    50100001    Send Size in MPI Global OP
0    50100002    Recv Size in MPI Global OP
0    50100003    Root in MPI Global OP
0    50100004    Communicator in MPI Global OP
0    40000050    Elapsed time in MPI
0    30000000    Caller at level 1
0    30000100    Caller line at level 1
0    70000001    Caller at level 1
0    80000001    Caller line at level 1
0    60000001    Parallel (OMP)
0 close
1 DO (open)
2 SECTIONS (open)
3 REGION (open)
0    60000002    Worksharing (OMP)
4 DO
5 SECTIONS
6 SINGLE
0    60000018    Executed OpenMP parallel function
0    60000118    Executed OpenMP parallel function line and file
0    60000023    Executed OpenMP task function
0    60000123    Executed OpenMP task function line and file
0    60000025    Instantiated OpenMP task function
0    60000125    Instantiated OpenMP task function line and file
0    60000005    OpenMP barrier
0    60000006    OpenMP unnamed-Lock
0    60000007    OpenMP named-Lock
0    60000032    OpenMP named-Lock address name
0    60000011    OpenMP Worksharing work dispatcher
0    60000016    OpenMP Worksharing join
0    60000021    OMP taskwait
0    60000022    OMP taskloop
0    61000000    pthread function
0    61000001    pthread function line and file
0    60000020    OpenMP set num threads
0    60000019    OpenMP get num threads
Unlocked status
Lock
Unlock
Locked status
Join (w wait)
Join (w/o wait)
Outside ordered
Waiting to enter
Signaling the exit
Inside ordered
pthread_create
pthread_join
pthread_detach
pthread_exit
pthread_barrier_wait
pthread_mutex_lock
pthread_mutex_unlock
pthread_mutex_trylock
pthread_cond_wait
pthread_cond_signal
pthread_cond_broadcast
pthread_cond_timedwait
pthread_rwlock_rdlock
pthread_rwlock_wrlock
pthread_rwlock_unlock
0    63000001    CUDA library call
0    63000002    CUDA accelerator
cudaLaunch
cudaConfigureCall
cudaMemcpy
cudaThreadSynchronize
cudaDeviceSynchronize
cudaStreamSynchronize
cudaMemcpyAsync
cudaMalloc
cudaFree
0    64000000    OpenCL host call
0    64100000    OpenCL accelerator call
0    32000000    User function
0    32000100    User function line and file
0    40000033    Memory usage
0    41999999    Active hardware counter set
0    40000004    Task identifier
0    40000005    Thread identifier
Unresolved
_NOT_Found
"""

# Score-P / OTF2 (Score-P's public source: src/adapters, OPARI2's region names)
SCOREP = """MPI_COMM_WORLD MPI_COMM_SELF MPI_GROUP_WORLD MPI_GROUP_EMPTY MPI_GROUP_SELF
machine node Linux Master thread MPI Rank OMP Thread CUDA Context CUDA Stream CUDA Device
OpenCL Device OpenCL Queue pthread Thread MEASUREMENT OFF TRACE BUFFER FLUSH THREADS
Score-P ScoreP User Measurement OpenMP OpenACC CUDA OpenCL SHMEM Kokkos HIP Sampling Compiler
MPI_Request MPI_Status WAITING USER MPI_COLL_SIZE
!$omp parallel !$omp for !$omp do !$omp sections !$omp section !$omp single !$omp master
!$omp critical !$omp atomic !$omp barrier !$omp implicit barrier !$omp ibarrier !$omp flush
!$omp task !$omp taskwait !$omp task untied !$omp ordered !$omp workshare !$omp taskgroup
!$omp create task !$omp create task untied !$omp parallel for !$omp parallel do
!$omp parallel sections !$omp parallel workshare !$omp target !$omp teams !$omp taskloop
!$omp loop !$omp single sblock !$omp master construct !$omp simd !$omp end parallel
omp_set_lock omp_unset_lock omp_test_lock omp_init_lock omp_destroy_lock omp_set_nest_lock
omp_unset_nest_lock omp_test_nest_lock omp_init_nest_lock omp_destroy_nest_lock
omp_get_num_threads omp_get_thread_num omp_set_num_threads omp_get_wtime omp_in_parallel
cudaLaunchKernel cuLaunchKernel cudaMemcpyHostToDevice cudaMemcpyDeviceToHost
ompt_parallel ompt_task ompt_implicit_task ompt_work_loop ompt_work_sections ompt_work_single
ompt_sync_region_barrier ompt_sync_region_barrier_implicit ompt_sync_region_taskwait
ompt_sync_region_taskgroup ompt_mutex_critical ompt_mutex_lock ompt_mutex_atomic
implicit barrier parallel loop sections single masked critical ordered taskwait taskgroup
task implicit task initial task target teams
"""

# TAU's fixed names (TAU's public source: src/Profile/TauMetaData.cpp for the metadata keys,
# TauMpi.c and TauUserEvent for the context events, the tracing library for the edf lines)
TAU_METADATA = ["Starting Timestamp", "UTC Time", "Local Time", "Timestamp", "Hostname",
                "OS Name", "OS Version", "OS Release", "OS Machine", "Node Name",
                "TAU Architecture", "TAU Config", "TAU Makefile", "TAU Version", "pid",
                "CPU Vendor", "CPU MHz", "CPU Type", "Cache Size", "CPU Cores", "Memory Size",
                "Executable", "CWD", "Command Line", "username", "MPI Processor Name",
                "OMP_CHUNK_SIZE", "OMP_DEFAULT_DEVICE", "OMP_DYNAMIC",
                "OMP_MAX_ACTIVE_LEVELS", "OMP_MAX_THREADS", "OMP_NESTED", "OMP_NUM_PLACES",
                "OMP_NUM_PROCS", "OMP_PLACE_NUM_PROCS", "OMP_PLACE_PROC_IDS", "OMP_PROC_BIND",
                "OMP_SCHEDULE", "OMP_THREAD_LIMIT", "OMP_WAIT_POLICY", "OMP_NUM_THREADS"]

TAU_FIXED = """# FunctionId Group Tag "Name Type" Parameters
0 TAUEVENT 1 "
" TriggerValue
" EntryExit
 TAU_DEFAULT 
 TAU_USER 
 TAUEVENT 
 MPI 
 TAU_MESSAGE 
 TAU_IO 
 TAU_PTHREAD 
 TAU_OPENMP 
 TAU_GPU 
 TAU_CUDA 
 OpenCL 
.TAU application
.TAU <unknown event>
TAU_DEFAULT
TAU_USER
TAU_MESSAGE
TAUEVENT
TAU_IO
TAU_CALLPATH
TAU trace
TAU application
dynamic_trace_events
Message size sent to node 
Message size received from node 
Message size sent to all nodes
Message size for broadcast
Message size for reduce
Message size for all-reduce
Message size for all-gather
Message size for gather
Message size for scatter
Message size for all-to-all
Message size for reduce-scatter
Message size for scan
 : .TAU application
 => 
Bytes copied from Host to Device
Bytes copied from Device to Host
Bytes copied from Device to Device
Unified Memory Bytes copied from Host to Device
Unified Memory Bytes copied from Device to Host
Correlation ID
Memory Operations
Control Operations
Floating Point Operations
Bytes Read
Bytes Written
Read Bandwidth (MB/s)
Write Bandwidth (MB/s)
Heap Memory Used (KB)
Memory Footprint (VmRSS) (KB)
Peak Memory Usage Resident Set Size (VmHWM) (KB)
ONESIDED_MESSAGE
ONESIDED_MESSAGE_ID
ONESIDED_MESSAGE_SEND
ONESIDED_MESSAGE_RECV
ONESIDED_MESSAGE_RECIPROCAL_SEND
ONESIDED_MESSAGE_RECIPROCAL_RECV
TAU communicator
"""


def main():
    mpi_h, cl_h, cuda_dir = sys.argv[1:4]
    runtime, driver = cuda_functions(cuda_dir)
    blocks = [
        ("CUDA driver API", driver),
        ("CUDA runtime API", runtime),
        ("OpenCL API as TAU names it", opencl_prototypes(cl_h)),
        ("POSIX I/O", POSIX_IO),
        ("PAPI presets", ["PAPI_" + p for p in PAPI_PRESETS]),
        ("Score-P, OpenMP, OMPT", SCOREP.split("\n")),
        ("Extrae .pcf", EXTRAE.rstrip("\n").split("\n")),
        ("TAU", TAU_FIXED.rstrip("\n").split("\n") + [k + " | " for k in TAU_METADATA]),
        ("MPI as TAU names it", [n + "()" for n in mpi_functions(mpi_h)]),
        ("MPI", mpi_functions(mpi_h)),
    ]
    out = sys.stdout
    for title, lines in blocks:
        out.write("\n".join(line for line in lines if line) + "\n")


if __name__ == "__main__":
    main()
