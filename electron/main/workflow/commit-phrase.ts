// A component's commit subject says what the commit changes. Task lists state behaviours ("slugify strips accents",
// "adds two numbers": each task is a behaviour a test can check) and components are named by noun phrases
// ("Conversion functions"): as a subject, each reads as a claim or a label, not as a change. Here they become one.

/** Verbs a subject that says what changed begins with (in their plain form). */
const VERBS = new Set(
  (
    'accept add adjust allow apply avoid build bump cache calculate capitalize change check clamp clean close collect combine compare compute convert copy ' +
    'count create decode define delete deprecate detect disable document drop emit enable encode ensure escape expand export expose extract fetch ' +
    'filter find fix flag format generate get group handle hide ignore implement import improve include introduce join keep let limit list load ' +
    'log lower make map match measure merge move normalize open pad parse persist prevent print raise read record refactor reject remove rename ' +
    'render replace report require reset resolve restore retry return reverse rewrite round run save scan search send serve set show skip sort ' +
    'split store strip sum support test tidy track trim truncate uppercase lowercase update upgrade use validate warn wrap write ' +
    'process throw exit fail respond watch sanitize dedupe deduplicate paginate schedule notify authenticate configure install ' +
    'migrate refresh reload clear verify translate quote indent align highlight tokenize summarize aggregate greet ask download ' +
    'upload sync stream spawn stop pause resume toggle invert negate multiply divide subtract'
  ).split(' '),
);
/** Words after which the first word of a title is a verb ("lowercase the slug"). */
const DETERMINERS = new Set('the a an each every all its their no any both'.split(' '));
/** Words that end a noun phrase, never a verb's object: "conversions for temperatures". */
const LINKS = new Set('for of in on to from with by and or at as into per via'.split(' '));
const IRREGULAR: Record<string, string> = { is: 'be', has: 'have', does: 'do', goes: 'go' };

/** A verb's plain form from its third-person one ("strips" → "strip", "applies" → "apply", "matches" → "match"). */
function plain(verb: string): string {
  const lower = verb.toLowerCase();
  if (IRREGULAR[lower]) return IRREGULAR[lower];
  const candidates = [lower.slice(0, -1), lower.replace(/es$/, ''), lower.replace(/ies$/, 'y')];
  const known = candidates.find((c) => VERBS.has(c));
  if (known) return known;
  if (/ies$/.test(lower)) return lower.replace(/ies$/, 'y');
  if (/(ss|sh|ch|x|z)es$/.test(lower)) return lower.slice(0, -2);
  return lower.slice(0, -1);
}

/** A word that may be a verb in the third person ("strips", "returns"), not one ending in -ss, -us, -is ("class", "status", "this"). */
const thirdPerson = (word: string) => /^[a-z]{2,}s$/i.test(word) && !/(ss|us|is|'s)$/i.test(word);

/** A name from the code, or one the caller knows is one: its case is kept ("count_words", "parseDate", "README.md"). */
export function isName(word: string, names: readonly string[] = []): boolean {
  const w = word.replace(/[:,;]$/, '');
  return /^[A-Z][A-Z0-9]/.test(w) || /^[a-z]+[A-Z]/.test(w) || /[_()./`]/.test(w) || names.includes(w);
}

const lowerFirst = (text: string, names: readonly string[]) => (isName(/^\S+/.exec(text)?.[0] ?? '', names) ? text : text.charAt(0).toLowerCase() + text.slice(1));

export interface PhraseContext {
  /** The component the commit is of: the subject of a behaviour stated without one ("adds two numbers"). */
  name: string;
  /** Names from the code, whose case is kept. */
  names?: readonly string[];
  /** The component is new in this commit (its code files are all added): "add <name>, which …" rather than "make <name> …". */
  added: boolean;
}

/**
 * One title as a change: kept when it begins with a verb ("Convert Celsius"); a behaviour becomes making it true
 * ("slugify strips accents" → "make slugify strip accents", or "add slugify, which strips accents" for a new
 * component); a label becomes its addition ("Conversion functions" → "add conversion functions").
 */
export function asChange(title: string, c: PhraseContext): string {
  const text = title.trim();
  const names = c.names ?? [];
  const words = text.split(/\s+/);
  const [first = '', second = ''] = words;
  const lower = first.toLowerCase();
  const named = isName(first, names);
  if (!text || (!named && VERBS.has(lower))) return text;
  // A behaviour without its subject ("adds two numbers", "Returns zero for empty input"): the component's.
  if (!named && thirdPerson(first) && second && !VERBS.has(second.toLowerCase()) && !LINKS.has(second.toLowerCase())) {
    const rest = words.slice(1).join(' ');
    return c.added ? `add ${c.name}, which ${lower} ${rest}` : `make ${c.name} ${plain(first)} ${rest}`;
  }
  // A verb this list lacks, known by its object ("Dedupe the entries").
  if (!named && DETERMINERS.has(second.toLowerCase())) return text;
  // A behaviour of something (at most three words before its verb, none a link: "Empty input returns zero").
  for (let i = 1; i <= 3 && i < words.length - 1; i++) {
    const subject = words.slice(0, i);
    if (subject.some((w) => LINKS.has(w.toLowerCase()))) break;
    const verb = words[i]!;
    const next = words[i + 1]!.toLowerCase();
    if (thirdPerson(verb) && !LINKS.has(next)) {
      const rest = words.slice(i + 1).join(' ');
      const who = lowerFirst(subject.join(' '), names);
      if (c.added && i === 1 && (named || first === c.name)) return `add ${who}, which ${verb} ${rest}`;
      return `make ${who} ${plain(verb)} ${rest}`;
    }
    // A plural subject and its verb ("Dates parse ISO strings").
    if (i === 1 && /s$/i.test(first) && VERBS.has(verb.toLowerCase())) return `make ${lowerFirst(text, names)}`;
  }
  return `add ${lowerFirst(text, names)}`;
}
