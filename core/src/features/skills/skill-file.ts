/** The longest SKILL.md cw reads, in bytes: a skill is instructions, not a data set. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/** A skill's name: 1 to 64 of a-z, 0-9 and single hyphens inside, as the shared SKILL.md format says. */
export const SKILL_NAME_PATTERN = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/;

const MAX_DESCRIPTION = 1024;

/** A SKILL.md read and checked: its front matter and the instructions after it. */
export interface SkillFile {
  readonly name: string;
  readonly description: string;
  /** The Markdown after the front matter, as written. */
  readonly body: string;
}

/** A SKILL.md that cannot be used as it stands; the message is cw's words and quotes none of the file. */
export class SkillFileError extends Error {
  override readonly name = 'SkillFileError';
}

/**
 * Parses a SKILL.md: YAML front matter between `---` lines with `name` and `description`, then the
 * instructions. Only the front matter's top-level `key: value` lines are read (plain, quoted, or a
 * `|` / `>` block); nested keys such as `metadata` are skipped. The name must match its folder.
 */
export function parseSkillFile(text: string, folderName: string): SkillFile {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') throw new SkillFileError('has no front matter (a --- line first)');
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) throw new SkillFileError('front matter is not closed by a --- line');
  const fields = frontMatterFields(lines.slice(1, end));
  const name = fields.get('name');
  const description = fields.get('description');
  if (name === undefined || name === '') throw new SkillFileError('front matter has no name');
  if (!SKILL_NAME_PATTERN.test(name))
    throw new SkillFileError('name must be 1 to 64 of a-z, 0-9 and single inner hyphens');
  if (name !== folderName) throw new SkillFileError('name differs from its folder name');
  if (description === undefined || description.trim() === '')
    throw new SkillFileError('front matter has no description');
  if (description.length > MAX_DESCRIPTION)
    throw new SkillFileError(`description is longer than ${MAX_DESCRIPTION} characters`);
  const body = lines
    .slice(end + 1)
    .join('\n')
    .replace(/^\n+/, '');
  return { name, description: description.trim(), body };
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:\s+(.*))?$/;

/** The top-level scalar fields of a front matter block. */
function frontMatterFields(lines: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#') || /^\s/.test(line)) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) throw new SkillFileError('front matter is not YAML key: value lines');
    const key = match[1] as string;
    const raw = (match[2] ?? '').trim();
    if (fields.has(key)) throw new SkillFileError('front matter repeats a key');
    if (raw === '|' || raw === '>' || raw === '|-' || raw === '>-') {
      const block: string[] = [];
      while (index + 1 < lines.length && (/^\s/.test(lines[index + 1] ?? '') || lines[index + 1] === '')) {
        block.push((lines[index + 1] ?? '').trim());
        index++;
      }
      fields.set(key, raw.startsWith('|') ? block.join('\n').trim() : block.join(' ').replace(/\s+/g, ' ').trim());
    } else {
      fields.set(key, scalar(raw));
    }
  }
  return fields;
}

function scalar(raw: string): string {
  if (raw.startsWith('"')) {
    if (!raw.endsWith('"') || raw.length < 2) throw new SkillFileError('front matter has an unclosed quote');
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new SkillFileError('front matter has a malformed quoted value');
    }
  }
  if (raw.startsWith("'")) {
    if (!raw.endsWith("'") || raw.length < 2) throw new SkillFileError('front matter has an unclosed quote');
    return raw.slice(1, -1).replaceAll("''", "'");
  }
  // A trailing comment is not part of a plain value.
  return raw.replace(/\s+#.*$/, '');
}
