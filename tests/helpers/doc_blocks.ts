/**
 * The fenced examples of README.md and docs/*.md: each block with its
 * language, its line, its marker (`<!-- example: needs a router -->` on the
 * line before the fence), and the commands of a shell block (continuation
 * lines joined, here-documents kept whole, comments kept beside the
 * command they describe).
 *
 * @module
 */

/** Why a marked block is not run; the only words a marker may say. */
export const MARKERS: Record<string, string> = {
  "needs a router": "reaches a real router or SSH bastion, which a test cannot stand in for",
  "needs the internet": "downloads a release, an image or an npm package (npx)",
  "needs Docker": "runs the container image",
  "needs Claude Code": "runs the claude command",
  "needs an OAuth server": "names an authorization server the server asks for its keys",
  "needs Prometheus":
    "a Prometheus server's own configuration, read by Prometheus, not by this product",
  "a fragment": "part of a larger file, which it does not stand for alone",
};

/** One fenced block. */
export interface DocBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word (`sh`, `json`, ...), or "" when none. */
  lang: string;
  /** The content, with the fence's indentation removed. */
  text: string;
  /** The words of an `<!-- example: ... -->` marker right before the fence. */
  marker?: string;
}

/** Every fenced block of a markdown page. */
export function docBlocks(page: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const marker = k >= 0 ? /^\s*<!-- example: (.+?) -->\s*$/.exec(lines[k])?.[1] : undefined;
    blocks.push({ page, line: i + 1, lang, text: body.join("\n") + "\n", marker });
    i = j;
  }
  return blocks;
}

/** One command of a shell block. */
export interface ShCommand {
  /** 1-based line in the page. */
  line: number;
  /** The command as bash reads it (continuations joined, a here-document included). */
  text: string;
  /** Comment lines right above it (`# A bad argument: 422 ...`). */
  before: string[];
  /** Comment lines right below it (`# {"error": ...}`, the expected output). */
  after: string[];
}

/** The commands of a shell block, with their comments. */
export function shCommands(block: DocBlock): ShCommand[] {
  const lines = block.text.replace(/\n$/, "").split("\n");
  const out: ShCommand[] = [];
  let comments: string[] = [];
  /** The command right above, while only its comments follow it. */
  let outputOf: ShCommand | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") {
      comments = [];
      outputOf = undefined;
      continue;
    }
    if (/^\s*#/.test(line)) {
      const text = line.replace(/^\s*#\s?/, "");
      if (outputOf) outputOf.after.push(text);
      else comments.push(text);
      continue;
    }
    const start = i;
    let text = line;
    while (text.endsWith("\\") && i + 1 < lines.length) {
      text = text.slice(0, -1) + lines[++i].trim();
    }
    const heredoc = /<<-?\s*'?"?(\w+)'?"?/.exec(text);
    if (heredoc) {
      while (i + 1 < lines.length) {
        text += "\n" + lines[++i];
        if (lines[i].trim() === heredoc[1]) break;
      }
    }
    outputOf = {
      line: block.line + 1 + start,
      text: heredoc ? text : text.replace(/\s+#\s.*$/, "").trim(),
      before: comments,
      after: [],
    };
    out.push(outputOf);
    comments = [];
  }
  return out;
}

/** A command line split into words as the shell would (quotes removed; no expansion). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? line.length : end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length) j++;
        word += line[j];
      }
      i = j;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
