/**
 * Every regular expression the TypeScript sources build: `/.../flags` literals and
 * `RegExp(...)` / `new RegExp(...)` calls, read with the compiler's parser (not by grepping, so a
 * `/` in a string, a comment or a division is never taken for a pattern). A call's pattern is
 * worked out when it is built from string literals, templates and `const`s of the same file
 * holding those; any other call is reported as dynamic, with its source text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FoundRegex {
  /** Path relative to the root, with `/` separators. */
  readonly file: string;
  readonly line: number;
  /** The pattern; undefined when it is built at run time from values the parser cannot follow. */
  readonly source: string | undefined;
  readonly flags: string;
  /** The expression as written, for messages. */
  readonly text: string;
}

/** `.ts` files under `folder` (recursively), sorted. */
export function typeScriptFiles(root: string, folder: string): string[] {
  const entries = readdirSync(join(root, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/** The string `const`s of a file, by name, for following `new RegExp(`[${NAME}]+`)`. */
function stringConstants(source: ts.SourceFile): Map<string, ts.Expression> {
  const constants = new Map<string, ts.Expression>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && node.flags & ts.NodeFlags.Const) {
      for (const declaration of node.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) {
          constants.set(declaration.name.text, declaration.initializer);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return constants;
}

/** Whether `expression` is `` String.raw`...` ``, whose parts are taken as written. */
const isStringRaw = (expression: ts.Expression): expression is ts.TaggedTemplateExpression =>
  ts.isTaggedTemplateExpression(expression) && expression.tag.getText() === 'String.raw';

/** The text of a template part: as written for `String.raw`, else with its escapes applied. */
const partText = (part: ts.TemplateLiteralLikeNode, raw: boolean): string => (raw ? (part.rawText ?? part.text) : part.text);

/** The value of a string expression built from literals, templates, `String.raw`, `+` and known constants. */
function evaluateString(expression: ts.Expression, constants: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (depth > 20) return undefined;
  const inner = (e: ts.Expression) => evaluateString(e, constants, depth + 1);
  const raw = isStringRaw(expression);
  const template = raw ? expression.template : expression;
  if (ts.isNoSubstitutionTemplateLiteral(template)) return partText(template, raw);
  if (ts.isStringLiteral(expression)) return expression.text;
  if (ts.isParenthesizedExpression(expression)) return inner(expression.expression);
  if (ts.isAsExpression(expression)) return inner(expression.expression);
  if (ts.isIdentifier(expression)) {
    const initializer = constants.get(expression.text);
    return initializer === undefined ? undefined : inner(initializer);
  }
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = inner(expression.left);
    const right = inner(expression.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isTemplateExpression(template)) {
    let text = partText(template.head, raw);
    for (const span of template.templateSpans) {
      const value = inner(span.expression);
      if (value === undefined) return undefined;
      text += value + partText(span.literal, raw);
    }
    return text;
  }
  return undefined;
}

/** Whether a call or `new` builds a RegExp. */
const isRegExpConstructor = (node: ts.Node): node is ts.NewExpression | ts.CallExpression =>
  (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === 'RegExp';

/** The regular expressions of one file. */
export const regexesOfFile = (root: string, file: string): FoundRegex[] => regexesOfSource(file, readFileSync(join(root, file), 'utf8'));

/** The regular expressions of TypeScript source `text`, reported as being in `file`. */
export function regexesOfSource(file: string, text: string): FoundRegex[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const constants = stringConstants(source);
  const found: FoundRegex[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(source);
      const end = literal.lastIndexOf('/');
      found.push({ file, line: lineOf(node), source: literal.slice(1, end), flags: literal.slice(end + 1), text: literal });
    } else if (isRegExpConstructor(node)) {
      const [patternArgument, flagsArgument] = node.arguments ?? [];
      const pattern = patternArgument && evaluateString(patternArgument, constants);
      const flags = flagsArgument === undefined ? '' : evaluateString(flagsArgument, constants);
      const known = pattern !== undefined && flags !== undefined;
      found.push({
        file,
        line: lineOf(node),
        source: known ? pattern : undefined,
        flags: flags ?? '',
        text: node.getText(source),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The regular expressions of every `.ts` file under the given folders. */
export function regexesUnder(root: string, folders: readonly string[]): FoundRegex[] {
  return folders.flatMap((folder) => typeScriptFiles(root, folder).flatMap((file) => regexesOfFile(root, file)));
}
