import Handlebars from 'handlebars';
import { LRUCache } from 'lru-cache';

/*
 * Message templates: Handlebars syntax, a logic-less subset (variables, `if`/`unless`/`else`), checked
 * before anything is kept and rendered by a small interpreter with a byte budget. Handlebars parses;
 * it does not render, because a compiled Handlebars function cannot be stopped half-way and its
 * helpers (`each` over `@root`, partials, `SafeString`) are what made a template stall the service.
 * Every bound is in docs/notifications.md, "Templates".
 */

/** Block nesting (`{{#if}}` inside `{{#if}}` …); `{{else if}}` chains do not nest. */
export const TEMPLATE_DEPTH_MAX = 6;
/** `{{…}}` tags in one field: parsing is linear, this keeps it to a few milliseconds. */
export const TEMPLATE_TAGS_MAX = 250;
/** Characters of one tag, `{{` to `}}`. */
export const TEMPLATE_TAG_LENGTH_MAX = 200;
/** What one field may render to, in UTF-8 bytes: a message over it is recorded failed, not sent. */
export const RENDERED_FIELD_MAX_BYTES = 262_144;
/** The only helpers a template may name; no message variable is a list or an object. */
const BLOCK_HELPERS = new Set(['if', 'unless']);

/** A template outside the rules; `permanent`: sending it again would fail the same way. */
export class TemplateError extends Error {
  readonly permanent = true;
}

type Node = hbs.AST.Node;
type Statement = hbs.AST.Statement;
type Compiled = hbs.AST.Program;

/**
 * A linear scan run before the parser: Handlebars' parser recurses per nesting level and stalls on
 * deeply nested blocks (docs/decisions/templates.md), so depth, tag count and tag length are refused here in one pass.
 * Conservative: it may count a block the parser would not, never the reverse.
 */
function scan(source: string): void {
  let tags = 0;
  let depth = 0;
  let at = source.indexOf('{{');
  while (at !== -1) {
    if (++tags > TEMPLATE_TAGS_MAX) throw new TemplateError(`has more than ${TEMPLATE_TAGS_MAX} {{…}} tags`);
    if (source.startsWith('{{{{', at)) throw new TemplateError('uses a raw block ({{{{…}}}}), which templates do not allow');
    const comment = /^\{\{~?!(--)?/.exec(source.slice(at, at + 5));
    const closer = comment?.[1] ? '--}}' : '}}';
    const end = source.indexOf(closer, at + 2);
    if (end === -1) throw new TemplateError(`has an unclosed tag at character ${at}`);
    const tag = source.slice(at, end + closer.length);
    if (!comment) {
      if (tag.length > TEMPLATE_TAG_LENGTH_MAX) throw new TemplateError(`has a tag longer than ${TEMPLATE_TAG_LENGTH_MAX} characters at character ${at}`);
      if (tag.includes('(')) throw new TemplateError(`uses a sub-expression in ${tag}, which templates do not allow`);
      const sigil = tag.replace(/^\{\{~?/, '')[0];
      if (sigil === '#' || (sigil === '^' && !/^\{\{~?\^\s*~?\}\}$/.test(tag))) depth += 1;
      else if (sigil === '/') depth -= 1;
      if (depth > TEMPLATE_DEPTH_MAX) throw new TemplateError(`nests blocks deeper than ${TEMPLATE_DEPTH_MAX}`);
    }
    at = source.indexOf('{{', end + closer.length);
  }
}

const shown = (node: Node): string => {
  const loc = node.loc?.start;
  return loc ? ` (line ${loc.line}, column ${loc.column + 1})` : '';
};

/** A variable reference: one plain name (no `@root`, `../`, `this` or `a.b`). */
function variableName(node: Node, where: string): string {
  const path = node as hbs.AST.PathExpression;
  if (
    node.type !== 'PathExpression' ||
    path.data ||
    path.depth > 0 ||
    path.parts.length !== 1 ||
    path.original === 'this' ||
    /^\.|^this\b/.test(path.original)
  ) {
    const text = (node as { original?: unknown }).original ?? node.type;
    throw new TemplateError(`${where}: ${String(text)} is not a variable name${shown(node)}; use {{variable}} with one of the message type's variables`);
  }
  return path.parts[0];
}

function check(statements: Statement[], html: boolean, depth: number): void {
  for (const statement of statements) {
    switch (statement.type) {
      case 'ContentStatement':
      case 'CommentStatement':
        break;
      case 'MustacheStatement': {
        const mustache = statement as hbs.AST.MustacheStatement;
        const name = variableName(mustache.path, 'a tag');
        if (mustache.params.length || mustache.hash)
          throw new TemplateError(`{{${name} …}} calls a helper${shown(statement)}: templates may use variables, if and unless only`);
        // Triple braces and {{& }} skip escaping: a customer's name would reach the store's mail as HTML.
        if (html && !mustache.escaped) throw new TemplateError(`{{{${name}}}} leaves HTML unescaped${shown(statement)}: use {{${name}}} in an html field`);
        break;
      }
      case 'BlockStatement': {
        const block = statement as hbs.AST.BlockStatement;
        const helper = block.path.original;
        if (!BLOCK_HELPERS.has(helper))
          throw new TemplateError(`{{#${helper}}} is not allowed${shown(statement)}: templates may use if and unless (no message variable is a list)`);
        if (block.params.length !== 1 || block.hash) throw new TemplateError(`{{#${helper}}} takes one variable${shown(statement)}`);
        variableName(block.params[0], `{{#${helper}}}`);
        if (depth + 1 > TEMPLATE_DEPTH_MAX) throw new TemplateError(`nests blocks deeper than ${TEMPLATE_DEPTH_MAX}`);
        check(block.program.body, html, depth + 1);
        // `{{else if x}}` is a chained block inside the inverse: the same level, not a deeper one.
        if (block.inverse) check(block.inverse.body, html, (block.inverse as { chained?: boolean }).chained ? depth : depth + 1);
        break;
      }
      case 'PartialStatement':
      case 'PartialBlockStatement': {
        const name = (statement as hbs.AST.PartialStatement).name;
        throw new TemplateError(
          `uses the partial ${(name as { original?: string }).original ?? '(dynamic)'}${shown(statement)}: templates do not allow partials`,
        );
      }
      default:
        throw new TemplateError(
          `uses ${statement.type.replace(/Statement$|Block$/, '').toLowerCase() || statement.type}${shown(statement)}, which templates do not allow`,
        );
    }
  }
}

// Parsed templates by field kind and source; bounded by the sources' characters (16 MiB ≈ 160 of the largest).
const parsed = new LRUCache<string, Compiled>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (_value, key) => key.length });

/** Parses and checks a template (TemplateError when outside the rules); `html`: values are escaped. */
export function compileTemplate(source: string, html: boolean): Compiled {
  const key = `${html ? 'h' : 't'}${source}`;
  const cached = parsed.get(key);
  if (cached) return cached;
  scan(source);
  let program: Compiled;
  try {
    program = Handlebars.parse(source);
  } catch (error) {
    throw new TemplateError((error as Error).message.split('\n')[0]);
  }
  check(program.body, html, 0);
  parsed.set(key, program);
  return program;
}

const truthy = (value: unknown): boolean => Boolean(value) && !(Array.isArray(value) && value.length === 0);

/** Renders a checked template; throws TemplateError past RENDERED_FIELD_MAX_BYTES. */
export function renderTemplate(program: Compiled, html: boolean, variables: Record<string, unknown>, field: string): string {
  const out: string[] = [];
  // UTF-16 units never exceed UTF-8 bytes, so counting units stops no later than the byte bound would.
  let units = 0;
  const push = (text: string) => {
    units += text.length;
    if (units > RENDERED_FIELD_MAX_BYTES) throw new TemplateError(`${field} renders to more than ${RENDERED_FIELD_MAX_BYTES} bytes`);
    out.push(text);
  };
  const run = (statements: Statement[]) => {
    for (const statement of statements) {
      if (statement.type === 'ContentStatement') push((statement as hbs.AST.ContentStatement).value);
      else if (statement.type === 'MustacheStatement') {
        const value = variables[((statement as hbs.AST.MustacheStatement).path as hbs.AST.PathExpression).original];
        push(value == null ? '' : html ? Handlebars.escapeExpression(value as string) : String(value));
      } else if (statement.type === 'BlockStatement') {
        const block = statement as hbs.AST.BlockStatement;
        const on = truthy(variables[(block.params[0] as hbs.AST.PathExpression).original]) === (block.path.original === 'if');
        const branch = on ? block.program : block.inverse;
        if (branch) run(branch.body);
      }
    }
  };
  run(program.body);
  const text = out.join('');
  if (Buffer.byteLength(text) > RENDERED_FIELD_MAX_BYTES) throw new TemplateError(`${field} renders to more than ${RENDERED_FIELD_MAX_BYTES} bytes`);
  return text;
}
