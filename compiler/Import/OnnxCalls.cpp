//===- OnnxCalls.cpp - libonnx calls that report by exception ------------===//
//
// Compiled with exceptions enabled (see CMakeLists.txt): nothing thrown by
// libonnx leaves this file.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/OnnxCalls.h"

#include <onnx/defs/parser.h>
#include <onnx/defs/schema.h>

#include <exception>
#include <stdexcept>

namespace mlir::brrr {

std::string parseOnnxText(llvm::StringRef text, onnx::ModelProto &model) {
  try {
    // The parser reads up to a NUL: give it one past the text.
    std::string copy = text.str();
    onnx::OnnxParser parser(copy.c_str());
    auto status = parser.Parse(model);
    if (!status.IsOK())
      return status.ErrorMessage();
    return "";
  } catch (const std::invalid_argument &e) {
    // std::stoi and friends, on a number the parser's lexer let through.
    return std::string("a number cannot be read (") + e.what() + ")";
  } catch (const std::out_of_range &e) {
    return std::string("a number is out of range (") + e.what() + ")";
  } catch (const std::exception &e) {
    return e.what();
  } catch (...) {
    return "the parser failed";
  }
}

std::string checkNodeSchema(const onnx::NodeProto &node, llvm::StringRef name,
                            int64_t opset, int64_t sinceVersion) {
  try {
    const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(
        node.op_type(), static_cast<int>(opset), onnx::ONNX_DOMAIN);
    if (!schema)
      return "";
    const auto &ranges =
        onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto known = ranges.find(onnx::ONNX_DOMAIN);
    bool inEffect = (known != ranges.end() && opset <= known->second.second) ||
                    schema->SinceVersion() == sinceVersion;
    if (!inEffect)
      return "";
    if (node.name().empty()) {
      // The checker's messages name the node: give it the name brrr uses.
      onnx::NodeProto named = node;
      named.set_name(name.str());
      schema->Verify(named);
    } else {
      schema->Verify(node);
    }
    return "";
  } catch (const std::exception &e) {
    return e.what();
  } catch (...) {
    return "the ONNX schema check failed";
  }
}

} // namespace mlir::brrr
