// Words that carry no topic in a prompt ("how do we …", "can you please …"), including the verbs
// prompts open with ("write …", "add …", "show me …"): they say what to do, not what it is about,
// and matched on them an unrelated prompt found "Do not write snapshot tests". A fixed English list:
// memories and prompts in this product are English (descriptions are written for a model).
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by " +
    "can could did do does doing done down during each even ever every few for from further get gets getting got had has have having he her here " +
    "hers him his how i if in into is it its itself just let lets like make makes me might more most much must my no nor not now of off on once only " +
    "or other our ours out over own please same she should so some such than that the their theirs them then there these they this those through " +
    "to too under until up us use used using very via was we were what when where which while who whom why will with within without would you your yours " +
    "md new want need needs way thing things something anything one two " +
    "add adding write writing make making create show check try help explain tell look find give see know work works working"
  ).split(" "),
);

/**
 * The one term normaliser for both sides of the local index: lower case, stop words out, and a
 * light suffix strip so "deploys", "deploying" and "deployed" meet "deploy", and "file", "filed"
 * and "files" meet each other. Crude on purpose: it only has to send a word and its inflections to
 * the same key, not produce a dictionary stem.
 */
export function normaliseSearchTerm(term: string): string | null {
  const word = term.toLowerCase().replace(/['’]s?$/, "");
  if (word.length < 2 || STOP_WORDS.has(word)) return null;
  const stem = stripSuffix(word);
  // The inflections of a stop word are stop words too: "checks", "adds" and "writes" once
  // slipped past the list and matched like topics.
  return stem !== word && STOP_STEMS.has(stem) ? null : stem;
}

function stripSuffix(word: string): string {
  let stem = word;
  // "retries" and "retried" both meet "retry".
  if (stem.length > 4 && /ie[sd]$/.test(stem)) return `${stem.slice(0, -3)}y`;
  if (stem.length >= 4 && stem.endsWith("s") && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  const withoutS = stem;
  if (stem.length >= 6 && stem.endsWith("ing")) stem = stem.slice(0, -3);
  else if (stem.length >= 5 && stem.endsWith("ed") && !stem.endsWith("eed")) stem = stem.slice(0, -2);
  // "stopped" -> "stopp" -> "stop"; "rolling" -> "roll" keeps its double l; "adds" stays "add".
  if (stem !== withoutS && /([^aeiouls])\1$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.length >= 4 && stem.endsWith("e")) stem = stem.slice(0, -1);
  return stem;
}

const STOP_STEMS = new Set([...STOP_WORDS].map(stripSuffix));
