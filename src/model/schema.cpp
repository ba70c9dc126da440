#include "model/schema.hpp"

#include <sstream>
#include <stdexcept>

namespace mtf {

namespace {

FieldType typeOf(const std::string& word) {
  if (word == "u8") return FieldType::U8;
  if (word == "u32") return FieldType::U32;
  if (word == "u64") return FieldType::U64;
  if (word == "i64") return FieldType::I64;
  if (word == "f64") return FieldType::F64;
  if (word == "rank") return FieldType::Rank;
  if (word == "any") return FieldType::Any;
  return FieldType::Ref;
}

}  // namespace

int KindSchema::indexOf(std::string_view wanted) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == wanted) return static_cast<int>(i);
  return -1;
}

KindSchema parseKindSchema(std::string_view name, std::string_view spec) {
  KindSchema schema;
  schema.name = std::string(name);
  std::istringstream words{std::string(spec)};
  std::string word;
  while (words >> word) {
    FieldSpec field;
    if (word[0] == '*') {
      field.repeated = true;
      word.erase(0, 1);
    }
    const auto colon = word.find(':');
    if (colon == std::string::npos) throw std::logic_error("bad field spec in " + schema.name);
    field.name = word.substr(0, colon);
    const std::string type = word.substr(colon + 1);
    field.type = typeOf(type);
    if (field.type == FieldType::Ref) field.refKind = type;
    if (field.repeated)
      ++schema.groupSize;
    else if (schema.groupSize != 0)
      throw std::logic_error("fixed field after repeated group in " + schema.name);
    else
      ++schema.fixedCount;
    schema.fields.push_back(std::move(field));
  }
  return schema;
}

}  // namespace mtf
