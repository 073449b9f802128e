import Handlebars from 'handlebars';
import { DEFAULT_TEMPLATES } from '../../subgraphs/content/src/domain/notifications';
import { compileTemplate, renderTemplate, RENDERED_FIELD_MAX_BYTES, TEMPLATE_DEPTH_MAX, TEMPLATE_TAGS_MAX } from '../../subgraphs/content/src/domain/templates';

/** The template rules alone, without the system: each refusal names what it refuses. */
const refusal = (source: string, html = true) => {
  try {
    compileTemplate(source, html);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};
const render = (source: string, variables: Record<string, unknown>, html = true) => renderTemplate(compileTemplate(source, html), html, variables, 'html');
const nested = (open: string, close: string, depth: number) => `${open.repeat(depth)}x${close.repeat(depth)}`;

describe('template rules', () => {
  it('refuses deep nesting before the parser sees it, in a millisecond or so', () => {
    const attack = nested('{{#if order_id}}', '{{/if}}', 4000);
    const started = performance.now();
    expect(refusal(attack)).toBe(`nests blocks deeper than ${TEMPLATE_DEPTH_MAX}`);
    expect(performance.now() - started).toBeLessThan(250);
    expect(refusal(nested('{{#if a}}', '{{/if}}', TEMPLATE_DEPTH_MAX))).toBe('accepted');
    expect(refusal(nested('{{#unless a}}', '{{/unless}}', TEMPLATE_DEPTH_MAX + 1))).toMatch(/deeper than/);
    expect(refusal(nested('{{^a}}', '{{/a}}', TEMPLATE_DEPTH_MAX + 1))).toMatch(/deeper than/);
    // A chain of else-ifs is one level, however long.
    expect(refusal(`{{#if a}}A${'{{else if b}}B'.repeat(20)}{{/if}}`)).toBe('accepted');
    // Sub-expressions nest inside one tag: refused outright.
    expect(refusal(`{{#if ${'('.repeat(50)}a${')'.repeat(50)}}}x{{/if}}`)).toMatch(/sub-expression/);
  });

  it('refuses iteration, helpers, partials, decorators and data variables, naming them', () => {
    expect(refusal(nested('{{#each @root}}', '{{/each}}', 3))).toMatch(/\{\{#each\}\} is not allowed/);
    expect(refusal('{{#with customer_name}}x{{/with}}')).toMatch(/\{\{#with\}\} is not allowed/);
    expect(refusal('{{lookup this "code"}}')).toMatch(/calls a helper/);
    expect(refusal('Code {{log code}}')).toMatch(/calls a helper/);
    expect(refusal('<p>{{> header}}</p>')).toMatch(/partial header/);
    expect(refusal('{{#> layout}}x{{/layout}}')).toMatch(/partial layout/);
    expect(refusal('{{#*inline "x"}}y{{/inline}}')).toMatch(/not allow/);
    expect(refusal('{{@root.order_id}}')).toMatch(/@root.order_id is not a variable name/);
    expect(refusal('{{../order_id}}')).toMatch(/not a variable name/);
    expect(refusal('{{order.id}}')).toMatch(/not a variable name/);
    expect(refusal('{{{{raw}}}}x{{{{/raw}}}}')).toMatch(/raw block/);
    expect(refusal(`{{${'a'.repeat(300)}}}`)).toMatch(/longer than/);
    expect(refusal('{{a}}'.repeat(TEMPLATE_TAGS_MAX + 1))).toMatch(/more than/);
    expect(refusal('{{#if}}')).toMatch(/Parse error|Expecting/);
  });

  it('refuses unescaped values in html fields only', () => {
    expect(refusal('<p>{{{customer_name}}}</p>')).toMatch(/leaves HTML unescaped/);
    expect(refusal('<p>{{& customer_name}}</p>')).toMatch(/leaves HTML unescaped/);
    expect(refusal('{{{customer_name}}}', false)).toBe('accepted');
    expect(render('<p>{{customer_name}}</p>', { customer_name: '<b>Eve</b>' })).toBe('<p>&lt;b&gt;Eve&lt;/b&gt;</p>');
    expect(render('{{customer_name}}', { customer_name: '<b>Eve</b>' }, false)).toBe('<b>Eve</b>');
  });

  it('renders if, unless and else like Handlebars, and every default template the same as Handlebars does', () => {
    const source = '{{#if a}}A{{else if b}}B{{else}}C{{/if}}|{{#unless z}}Z{{/unless}}|{{~#if n}} N {{~/if~}} .';
    for (const variables of [{ a: 1 }, { b: 'x' }, { a: '', b: 0, n: 1 }, { z: true }]) {
      expect(render(source, variables)).toBe(Handlebars.compile(source)(variables));
    }
    const variables = {
      order_id: 'ord_1',
      customer_name: 'Ann & <Bo>',
      total: '1.00 BRL',
      store_name: 'S',
      sender_name: 'S"',
      reason: 'r',
      shipment_id: 'shp_1',
      estimated_delivery_date: '2026-12-01',
      name: 'N',
      role: 'admin',
      store_handle: 'h',
      admin_login_url: 'https://a.example/?x=1&y=2',
      code: '123456',
      minutes: 10,
    };
    for (const [type, locales] of Object.entries(DEFAULT_TEMPLATES)) {
      for (const [locale, fields] of Object.entries(locales)) {
        for (const [field, source] of Object.entries(fields)) {
          const html = field === 'html';
          expect([type, locale, field, render(source, variables, html)]).toEqual([
            type,
            locale,
            field,
            Handlebars.compile(source, { noEscape: !html })(variables),
          ]);
        }
      }
    }
  });

  it('stops rendering past the byte bound of a field, counting UTF-8 bytes', () => {
    const many = '{{n}}'.repeat(200);
    expect(() => render(many, { n: 'x'.repeat(2000) })).toThrow(`html renders to more than ${RENDERED_FIELD_MAX_BYTES} bytes`);
    // 100,000 characters of a three-byte character: under the bound in characters, over it in bytes.
    expect(() => render('€'.repeat(100_000), {})).toThrow(/more than/);
    expect(render('€'.repeat(80_000), {})).toHaveLength(80_000);
  });
});
