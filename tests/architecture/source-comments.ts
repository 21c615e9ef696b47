import ts from 'typescript';

export interface Comment {
  /** 1-based line of the comment's first character. */
  line: number;
  text: string;
}

/** Keywords after which a value stands, so a `/` that follows divides (everything else: a regex starts). */
const VALUE_KEYWORDS = new Set([
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

function endsValue(kind: ts.SyntaxKind): boolean {
  if (kind >= ts.SyntaxKind.FirstKeyword && kind <= ts.SyntaxKind.LastKeyword) return VALUE_KEYWORDS.has(kind);
  return [
    ts.SyntaxKind.Identifier,
    ts.SyntaxKind.PrivateIdentifier,
    ts.SyntaxKind.NumericLiteral,
    ts.SyntaxKind.BigIntLiteral,
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.RegularExpressionLiteral,
    ts.SyntaxKind.CloseParenToken,
    ts.SyntaxKind.CloseBracketToken,
    ts.SyntaxKind.CloseBraceToken,
    ts.SyntaxKind.PlusPlusToken,
    ts.SyntaxKind.MinusMinusToken,
  ].includes(kind);
}

/** JSX text, strings, templates and regexes replaced by spaces (newlines kept), so no `//` inside them reads as a comment. */
function blankLiterals(file: string, text: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const chars = text.split('');
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) || ts.isStringLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) {
      for (let i = node.getStart(source); i < node.end; i++) if (chars[i] !== '\n') chars[i] = ' ';
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return chars.join('');
}

/**
 * The next token after `kind` where only the parser would know: a `/` is a regex where a value
 * cannot stand, and the `}` that closes a template's `${` resumes the template.
 */
function rescan(scanner: ts.Scanner, kind: ts.SyntaxKind, previous: ts.SyntaxKind, braces: Array<'code' | 'template'>): ts.SyntaxKind {
  if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !endsValue(previous)) return scanner.reScanSlashToken();
  if (kind === ts.SyntaxKind.TemplateHead || kind === ts.SyntaxKind.OpenBraceToken) braces.push(kind === ts.SyntaxKind.TemplateHead ? 'template' : 'code');
  if (kind !== ts.SyntaxKind.CloseBraceToken || braces.pop() !== 'template') return kind;
  const resumed = scanner.reScanTemplateToken(false);
  if (resumed === ts.SyntaxKind.TemplateMiddle) braces.push('template');
  return resumed;
}

/**
 * The comments of a TypeScript or JavaScript file. Files without JSX go through TypeScript's
 * scanner alone (a full parse of every file would take seconds). A .tsx file is parsed first, its
 * literals and JSX text blanked, since only the parser tells JSX text from code.
 */
export function sourceComments(file: string, original: string): Comment[] {
  const text = file.endsWith('x') ? blankLiterals(file, original) : original;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: Comment[] = [];
  const braces: Array<'code' | 'template'> = [];
  let previous = ts.SyntaxKind.Unknown;
  let [line, counted] = [1, 0];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      for (; counted < scanner.getTokenStart(); counted++) if (text.charCodeAt(counted) === 10) line++;
      comments.push({ line, text: scanner.getTokenText() });
    } else if (kind !== ts.SyntaxKind.NewLineTrivia && kind !== ts.SyntaxKind.WhitespaceTrivia) {
      previous = rescan(scanner, kind, previous, braces);
    }
  }
  return comments;
}

/** The comments of a shell script: what follows a `#` that starts a line (after indentation). */
export function shellComments(text: string): Comment[] {
  return text.split('\n').flatMap((line, i) => (/^\s*#/.test(line) && !line.startsWith('#!') ? [{ line: i + 1, text: line }] : []));
}
