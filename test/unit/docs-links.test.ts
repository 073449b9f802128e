import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Every relative link of the README, CONTRIBUTING.md and docs/ leads somewhere: the file (or folder)
 * exists, and an anchor names a heading of the Markdown file it points into (GitHub's heading ids).
 */
const ROOT = new URL('../../', `file://${__dirname}/`);

const markdownIn = (folder: string): string[] =>
  readdirSync(new URL(folder, ROOT), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownIn(`${folder}${entry.name}/`) : entry.name.endsWith('.md') ? [`${folder}${entry.name}`] : [],
  );

const FILES = ['README.md', 'CONTRIBUTING.md', ...markdownIn('docs/')];

/** The text outside fenced code blocks, and without inline code spans (which may hold brackets). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    return fenced || line.trimStart().startsWith('```') ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's id of a heading: lower case, punctuation dropped, each space a hyphen; repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const words = heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
    const slug = words
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  const at = new URL(file, ROOT);
  const broken: string[] = [];
  prose(readFileSync(at, 'utf8')).forEach((line, index) => {
    for (const [, target] of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const into = path ? new URL(path, at) : at;
      const where = `${file}:${index + 1} ${target}`;
      if (!existsSync(into)) broken.push(`${where}: no such file`);
      else if (anchor !== undefined && into.pathname.endsWith('.md') && !anchorsOf(readFileSync(into, 'utf8')).has(decodeURIComponent(anchor)))
        broken.push(`${where}: no such heading`);
    }
  });
  return broken;
}

describe('documentation links', () => {
  it('reads the README, CONTRIBUTING.md and every page of docs/', () => {
    expect(FILES).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/architecture.md', 'docs/limits.md']));
  });

  it.each(FILES)('%s: every relative link resolves', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('links every page of docs/ from the README', () => {
    const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
    const unlinked = FILES.filter((file) => file.startsWith('docs/') && !readme.includes(`](${file}`));
    expect(unlinked).toEqual([]);
  });
});
