// How many statements an operator's query holds (`npm run admin -- sql`, one statement at a time): PostgreSQL's
// driver runs every statement of a query without parameters, the embedded store refuses a second in its own words,
// so the command counts them itself. Semicolons inside strings ('...', E'...' with its backslash escapes), quoted
// names ("..."), comments (-- and nested /* */) and dollar-quoted bodies ($$...$$, $tag$...$tag$) end nothing; one at
// the end is allowed.

const IDENTIFIER_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/** The number of statements in `sql` that hold anything but blanks and comments. */
export function statementCount(sql: string): number {
  let count = 0;
  let content = false;
  let i = 0;
  const n = sql.length;
  const endOf = (close: string, from: number, escapes = false): number => {
    let j = from;
    while (j < n) {
      if (escapes && sql[j] === "\\") j += 2;
      else if (sql.startsWith(close, j)) {
        // A doubled quote is the quote itself.
        if (close.length === 1 && sql[j + 1] === close) j += 2;
        else return j + close.length;
      } else j++;
    }
    return n;
  };
  while (i < n) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        const pair = sql.slice(i, i + 2);
        if (pair === "/*" || pair === "*/") {
          depth += pair === "/*" ? 1 : -1;
          i += 2;
        } else i++;
      }
    } else if (c === ";") {
      if (content) count++;
      content = false;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      content = true;
      const prev = i > 0 ? sql[i - 1]! : "";
      if (c === "'") {
        const escaped = /[eE]/.test(prev) && !(i > 1 && IDENTIFIER_CHAR.test(sql[i - 2]!));
        i = endOf("'", i + 1, escaped);
      } else if (c === '"') {
        i = endOf('"', i + 1);
      } else if (c === "$" && !IDENTIFIER_CHAR.test(prev)) {
        const tag = DOLLAR_TAG.exec(sql.slice(i, i + 64));
        if (tag) i = endOf(tag[0], i + tag[0].length);
        else i++;
      } else i++;
    }
  }
  return count + (content ? 1 : 0);
}
