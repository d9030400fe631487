#!/usr/bin/env node
/**
 * The mini-program has no browser: `window`, `document`, `localStorage`, `TextDecoder`, `Blob`,
 * `URL.createObjectURL` and friends are undefined there, and code that touches them crashes (a
 * refused export once did, through TextDecoder). This check reads src/ with the TypeScript compiler
 * and fails when such a global is used outside a platform guard. It runs in every weapp build
 * (config/index.ts) and by hand:  node scripts/check-weapp-globals.js
 *
 * A use is guarded when it sits
 *  - in the branch of an `if`, `?:` or `&&` that only runs on H5: `process.env.TARO_ENV === 'h5'`,
 *    `isH5()`, or `typeof <global> !== 'undefined'` (and the else branch of the negations);
 *  - after `if (<not H5>) return` (or throw) earlier in the same block;
 *  - inside a function marked `@h5only` in its doc comment. Such a function is itself treated like
 *    a browser global: every use of it must be guarded the same way.
 * Files named *.h5.ts(x) are skipped: Taro builds them into H5 only.
 */
const path = require('node:path')
const ts = require('typescript')

const root = path.resolve(__dirname, '..')
const BROWSER_GLOBALS = new Set(['window', 'document', 'localStorage', 'sessionStorage', 'TextDecoder', 'TextEncoder', 'Blob', 'location', 'Image', 'FileReader', 'HTMLElement'])
const BROWSER_MEMBERS = new Set(['URL.createObjectURL', 'URL.revokeObjectURL'])

const H5_TEST = [/TARO_ENV\s*===?\s*['"]h5['"]/, /TARO_ENV\s*!==?\s*['"]weapp['"]/, /\bisH5\(\)/, /typeof\s+\w+\s*!==?\s*['"]undefined['"]/]
const NOT_H5_TEST = [/TARO_ENV\s*!==?\s*['"]h5['"]/, /TARO_ENV\s*===?\s*['"]weapp['"]/, /!\s*isH5\(\)/, /typeof\s+\w+\s*===?\s*['"]undefined['"]/]
const matches = (tests, text) => tests.some(re => re.test(text))
/** A condition that only holds on H5 (every part of an && chain counts). */
const isH5Condition = node => {
  const text = node.getText()
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return isH5Condition(node.left) || isH5Condition(node.right)
  if (ts.isParenthesizedExpression(node)) return isH5Condition(node.expression)
  return matches(H5_TEST, text) && !matches(NOT_H5_TEST, text)
}
/** A condition that holds everywhere but H5 (every part of an || chain counts). */
const isNotH5Condition = node => {
  const text = node.getText()
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.BarBarToken) return isNotH5Condition(node.left) || isNotH5Condition(node.right)
  if (ts.isParenthesizedExpression(node)) return isNotH5Condition(node.expression)
  return matches(NOT_H5_TEST, text)
}
const exits = stmt => ts.isReturnStatement(stmt) || ts.isThrowStatement(stmt) ||
  (ts.isBlock(stmt) && stmt.statements.length > 0 && exits(stmt.statements[stmt.statements.length - 1]))
const within = (node, part) => part !== undefined && node.pos >= part.pos && node.end <= part.end

function h5OnlyTagged (decl) {
  return ts.getJSDocTags(decl).some(tag => tag.tagName.text === 'h5only') ||
    (ts.isVariableDeclaration(decl) && ts.getJSDocTags(decl.parent.parent).some(tag => tag.tagName.text === 'h5only'))
}

/** Whether the use at `node` can only run on H5. */
function guarded (node) {
  let child = node
  for (let p = node.parent; p; child = p, p = p.parent) {
    if (ts.isIfStatement(p) && child !== p.expression) {
      if (within(node, p.thenStatement) && isH5Condition(p.expression)) return true
      if (within(node, p.elseStatement) && isNotH5Condition(p.expression)) return true
    }
    if (ts.isConditionalExpression(p) && child !== p.condition) {
      if (within(node, p.whenTrue) && isH5Condition(p.condition)) return true
      if (within(node, p.whenFalse) && isNotH5Condition(p.condition)) return true
    }
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && within(node, p.right) && isH5Condition(p.left)) return true
    if (ts.isTypeOfExpression(p)) return true
    if ((ts.isBlock(p) || ts.isSourceFile(p)) && p.statements) {
      for (const stmt of p.statements) {
        if (stmt.pos >= child.pos) break
        if (ts.isIfStatement(stmt) && !stmt.elseStatement && exits(stmt.thenStatement) && isNotH5Condition(stmt.expression)) return true
      }
    }
    if (ts.isFunctionLike(p) && h5OnlyTagged(p)) return true
    if (ts.isVariableDeclaration(p) && h5OnlyTagged(p)) return true
    if ((ts.isMethodDeclaration(p) || ts.isPropertyAssignment(p)) && h5OnlyTagged(p)) return true
  }
  return false
}

/** Unguarded browser-only uses in the given program's source files under src/. */
function findUnguarded (program, srcDir = path.join(root, 'src')) {
  const checker = program.getTypeChecker()
  const found = []
  // a global the browser's library declares (Node's types may declare some too, e.g. TextDecoder:
  // that does not make them the mini-program's), and not a name the project declares itself
  const isDomSymbol = sym => {
    const decls = sym?.declarations ?? []
    return decls.some(d => /[\\/]typescript[\\/]lib[\\/]lib\.dom/.test(d.getSourceFile().fileName)) &&
      !decls.some(d => d.getSourceFile().fileName.startsWith(srcDir))
  }
  const isH5OnlySymbol = sym => {
    if (!sym) return false
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
    return (target.declarations ?? []).some(d => h5OnlyTagged(d) || (ts.isVariableDeclaration(d) && h5OnlyTagged(d)))
  }
  for (const sf of program.getSourceFiles()) {
    // an .h5.ts(x) file is never part of the mini-program (Taro picks it for H5 builds only)
    if (!sf.fileName.startsWith(srcDir) || sf.isDeclarationFile || /\.h5\.tsx?$/.test(sf.fileName)) continue
    const visit = node => {
      let what = null
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && BROWSER_MEMBERS.has(`${node.expression.text}.${node.name.text}`)) {
        what = `${node.expression.text}.${node.name.text}`
      } else if (ts.isPropertyAccessExpression(node) && isH5OnlySymbol(checker.getSymbolAtLocation(node.name))) {
        what = `${node.getText()} (@h5only)`
      } else if (ts.isIdentifier(node) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) &&
        !(ts.isPropertyAssignment(node.parent) && node.parent.name === node) && !ts.isImportSpecifier(node.parent) &&
        !(ts.isPropertySignature(node.parent) || ts.isPropertyDeclaration(node.parent) || ts.isMethodDeclaration(node.parent)) &&
        !((ts.isFunctionDeclaration(node.parent) || ts.isVariableDeclaration(node.parent) || ts.isParameter(node.parent)) && node.parent.name === node) &&
        !ts.isTypeReferenceNode(node.parent) && !ts.isQualifiedName(node.parent) && !ts.isExpressionWithTypeArguments(node.parent)) {
        const sym = checker.getSymbolAtLocation(node)
        if (BROWSER_GLOBALS.has(node.text) && isDomSymbol(sym)) what = node.text
        else if (isH5OnlySymbol(sym)) what = `${node.text} (@h5only)`
      }
      if (what && !guarded(node)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart())
        found.push({ file: path.relative(root, sf.fileName), line: line + 1, what })
      }
      if (!ts.isTypeNode(node)) ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return found
}

function programFor (tsconfig = path.join(root, 'tsconfig.json')) {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: d => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')) } })
  return ts.createProgram({ rootNames: config.fileNames, options: config.options })
}

/** Throws with the list when src/ has unguarded uses (for the weapp build). */
function assertWeappSafe () {
  const found = findUnguarded(programFor())
  if (found.length) {
    throw new Error(`browser-only code outside a platform guard would crash the mini-program:\n${found.map(f => `  ${f.file}:${f.line}  ${f.what}`).join('\n')}\n(guard it with process.env.TARO_ENV === 'h5', or mark an H5-only function @h5only; see scripts/check-weapp-globals.js)`)
  }
}

module.exports = { findUnguarded, programFor, assertWeappSafe, BROWSER_GLOBALS }

if (require.main === module) {
  try {
    assertWeappSafe()
    console.log('ok   src/: no browser-only global outside a platform guard')
  } catch (e) {
    console.error(`FAIL ${e.message}`)
    process.exit(1)
  }
}
