// rspack loader for @campus/contracts (rspack.shared.js): wraps the initializer of every
// top-level `const` in a call annotated as pure, `/*#__PURE__*/ (() => <initializer>)()`.
// contracts builds zod schemas at module level; a bundler must keep such calls, so importing one
// constant (the kit's SESSION_REVOKED_MESSAGE, the feed's FEED_PAGE_SIZE) from the barrel used to
// bring every schema and zod itself into the page. Annotated, a schema nobody imports is dropped
// by the minifier, and zod with it when no kept schema needs it. The expressions are evaluated
// exactly as before, in the same order, for the constants that are used.
const ts = require('typescript');

module.exports = function pureContractsLoader(source) {
  const file = ts.createSourceFile(this.resourcePath, source, ts.ScriptTarget.Latest, true);
  const edits = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      // Literals and plain names are pure already; only calls and expressions need the wrapper.
      if (!init || ts.isLiteralExpression(init) || ts.isIdentifier(init)) continue;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) continue;
      edits.push({ start: init.getStart(file), end: init.getEnd() });
    }
  }
  let out = source;
  for (const { start, end } of edits.reverse()) {
    out = `${out.slice(0, start)}/*#__PURE__*/ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
  }
  return out;
};
