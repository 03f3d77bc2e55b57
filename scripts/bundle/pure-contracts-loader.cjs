// rspack loader for @campus/contracts (rspack.shared.js). Two rewrites, both for production
// builds only, so a page that imports a constant from the contracts never downloads zod:
//
// 1. Every top-level `const` whose value is a plain literal (a number, a string, a regular
//    expression, an array of literals `as const`, arithmetic or concatenation of literals) moves
//    to a companion module, `<file>.ts?contracts-literals`, that imports nothing; the file imports
//    it back and re-exports it. A page importing SESSION_REVOKED_MESSAGE or FEED_PAGE_SIZE is then
//    linked to the companion alone (the contracts are side-effect free), even when another page
//    of the same build uses a schema of that file: a module is shared by the whole build, so its
//    `import { z } from 'zod'` is live as soon as any page uses one of its schemas, and every chunk
//    holding that file used to pull zod in with it.
// 2. Every other top-level `const` initializer is wrapped in a call annotated as pure,
//    `/*#__PURE__*/ (() => <initializer>)()`: contracts builds zod schemas at module level and a
//    bundler must keep such calls, so importing one schema from the barrel used to bring every
//    schema (and zod) into the page. Annotated, a schema nobody imports is dropped by the minifier.
//
// The values are computed exactly as before, in the same order within each module (the literals
// have no order to keep: they read nothing).
const path = require('node:path');
const ts = require('typescript');

const LITERALS_QUERY = '?contracts-literals';

/** A value with no reads: literals, and arrays, arithmetic and `as const` of literals. */
function isLiteralValue(node) {
  if (
    ts.isStringLiteral(node) ||
    ts.isNumericLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isRegularExpressionLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword
  ) {
    return true;
  }
  if (ts.isParenthesizedExpression(node)) return isLiteralValue(node.expression);
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    return isLiteralValue(node.expression);
  }
  if (ts.isPrefixUnaryExpression(node)) {
    return node.operator === ts.SyntaxKind.MinusToken && isLiteralValue(node.operand);
  }
  if (ts.isBinaryExpression(node)) {
    const arithmetic = [
      ts.SyntaxKind.PlusToken,
      ts.SyntaxKind.MinusToken,
      ts.SyntaxKind.AsteriskToken,
      ts.SyntaxKind.SlashToken,
    ];
    return (
      arithmetic.includes(node.operatorToken.kind) &&
      isLiteralValue(node.left) &&
      isLiteralValue(node.right)
    );
  }
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isLiteralValue);
  return false;
}

/** Top-level `const NAME = <literal>;` statements with one declaration (exported or not). */
function literalConstants(file) {
  const found = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    const { declarations } = statement.declarationList;
    if (declarations.length !== 1) continue;
    const [declaration] = declarations;
    if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
    if (!isLiteralValue(declaration.initializer)) continue;
    const exported = (statement.modifiers ?? []).some(
      (modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword,
    );
    found.push({ statement, name: declaration.name.text, init: declaration.initializer, exported });
  }
  return found;
}

module.exports = function pureContractsLoader(source) {
  const file = ts.createSourceFile(this.resourcePath, source, ts.ScriptTarget.Latest, true);
  const literals = literalConstants(file);

  if (this.resourceQuery === LITERALS_QUERY) {
    return literals
      .map(({ name, init }) => `export const ${name} = ${init.getText(file)};\n`)
      .join('');
  }

  const edits = [];
  for (const { statement } of literals) {
    edits.push({ start: statement.getStart(file), end: statement.getEnd(), text: '' });
  }
  const moved = new Set(literals.map(({ statement }) => statement));
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement) || moved.has(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      // Plain names are pure already; only calls and expressions need the wrapper.
      if (!init || ts.isLiteralExpression(init) || ts.isIdentifier(init)) continue;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) continue;
      const start = init.getStart(file);
      const end = init.getEnd();
      edits.push({
        start,
        end,
        text: `/*#__PURE__*/ (() => (${source.slice(start, end)}))()`,
      });
    }
  }
  let out = source;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, start)}${text}${out.slice(end)}`;
  }
  if (literals.length === 0) return out;
  const companion = JSON.stringify(`./${path.basename(this.resourcePath)}${LITERALS_QUERY}`);
  const names = literals.map(({ name }) => name).join(', ');
  const exported = literals.filter((literal) => literal.exported).map(({ name }) => name);
  return [
    `import { ${names} } from ${companion};`,
    ...(exported.length > 0 ? [`export { ${exported.join(', ')} } from ${companion};`] : []),
    out,
  ].join('\n');
};
