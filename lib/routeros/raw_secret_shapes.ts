/**
 * Credentials in the text of a RouterOS string that no RouterOS argument
 * names, found by their shape in web requests that scripts send with
 * `/tool fetch` (DDNS updaters, notifiers, API calls):
 *
 * - the password of a URL (`sftp://user:pw@host/f`);
 * - a query or form field named as a secret (`?hostname=gw&password=...`,
 *   `http-data="api_key=...&text=up"`): its name says pass, pwd, secret,
 *   token, key, auth, signature, credential or session;
 * - a JSON member named so (`{"api_key":"..."}`);
 * - a Telegram bot token in a URL path (`/bot123456:AA...`);
 * - the value of a credential header of a comma-separated header list
 *   (`http-header-field`): `Authorization` (its scheme word kept:
 *   `Bearer ********`), `Cookie`, and every header whose name says auth,
 *   token, key, secret, password, session, signature or credential.
 *
 * Each finder reads one string's text (escapes undone) and returns the
 * ranges of it that hold a secret, in its own indices. Every pattern is
 * linear in the text (no nested quantifiers over the same characters).
 *
 * @module
 */

/** A range of a text, `from` to `to` (exclusive). */
export interface Range {
  from: number;
  to: number;
}

/** Names of query, form and JSON fields that hold a credential. */
const SECRET_FIELD = /pass|pwd|secret|token|key|auth|sig|credential|session/i;

/** URL user info with a password: `scheme://user:` then the password up to `@`. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]{0,31}:\/\/[^\s"/@:\\]*:)([^\s"/@\\]+)@/gi;

/** A query or form field: after `?`, `&` or at the start, `name=value` up to `&`, `#` or a blank. */
const FORM_FIELD = /(^|[?&])([A-Za-z0-9_.[\]-]{1,64})=([^&#\s"']*)/g;

/** A JSON member whose value is a string: `"name": "value"`. */
const JSON_MEMBER = /"([A-Za-z0-9_.-]{1,64})"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** A Telegram bot token in a URL path: `/bot<digits>:<token>`. */
const BOT_TOKEN = /\/bot(\d{5,}:[A-Za-z0-9_-]{20,})/g;

/** The ranges of every credential in a string's text found by shape (headers aside). */
export function shapedSecrets(text: string): Range[] {
  const out: Range[] = [];
  for (const m of text.matchAll(URL_PASSWORD)) {
    const from = m.index! + m[1].length;
    out.push({ from, to: from + m[2].length });
  }
  for (const m of text.matchAll(FORM_FIELD)) {
    if (m[3] === "" || !SECRET_FIELD.test(m[2])) continue;
    const to = m.index! + m[0].length;
    out.push({ from: to - m[3].length, to });
  }
  for (const m of text.matchAll(JSON_MEMBER)) {
    if (m[2] === "" || !SECRET_FIELD.test(m[1])) continue;
    const to = m.index! + m[0].length - 1;
    out.push({ from: to - m[2].length, to });
  }
  for (const m of text.matchAll(BOT_TOKEN)) {
    const to = m.index! + m[0].length;
    out.push({ from: to - m[1].length, to });
  }
  return out;
}

/** Whether a string ends where a URL's password starts (`https://user:`). */
export function endsAtUrlPassword(text: string): boolean {
  return /[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"/@:\\]*:$/i.test(text.slice(-300));
}

/** HTTP header names whose value is a credential. */
const SECRET_HEADER = /auth|cookie|token|key|secret|passw|session|signature|credential/i;
/** Headers whose value starts with a scheme word that is no secret (`Bearer`, `Basic`). */
const SCHEMED_HEADER = /^(proxy-)?authorization$/i;
/**
 * Where a header of a comma-separated list starts: its name and colon (after
 * `("` too: an expression such as `("Authorization: Bearer " . $token)`,
 * whose credential is masked to the end, the variable included).
 */
const HEADER_START = /(?:^|[,("])\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*:/g;

/** The credential values of a `Name: value, Name: value` header list. */
export function headerSecrets(text: string): Range[] {
  const out: Range[] = [];
  const starts = [...text.matchAll(HEADER_START)];
  starts.forEach((m, h) => {
    if (!SECRET_HEADER.test(m[1])) return;
    let a = m.index! + m[0].length;
    const b = starts[h + 1]?.index ?? text.length;
    while (a < b && /\s/.test(text[a])) a++;
    const scheme = SCHEMED_HEADER.test(m[1]) ? /^\S+\s+(?=\S)/.exec(text.slice(a, b)) : null;
    if (scheme) a += scheme[0].length;
    if (b > a) out.push({ from: a, to: b });
  });
  return out;
}
