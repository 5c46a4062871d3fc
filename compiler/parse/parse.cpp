// Placeholder parser: replaced by the real implementation.
#include "parse/parse.h"
namespace tileslc::parse {
ast::Module parse_module(const std::vector<lex::Token>& tokens, source::FileId file, diag::DiagnosticEngine& diags) {
  ast::Module m; m.file = file; return m;
}
ast::Module parse_file(const source::SourceManager& sm, source::FileId file, diag::DiagnosticEngine& diags) {
  return parse_module(lex::tokenize(sm, file, diags), file, diags);
}
}  // namespace tileslc::parse
