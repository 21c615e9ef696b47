import { rng } from './seed-random';

// The seed's words (docs/benchmarks.md, "Search"): a vocabulary of a few thousand words drawn with a
// Zipf-like frequency (the first few in most videos, most of them in a few hundred), so that a
// search meets what a real community's does: a word in most of a million videos, a word in a
// handful, a prefix that opens many words. English words come first, then Hindi words, accented
// names (José, Zoë: found typed without accents) and made-up words, mixed. The vocabulary is fixed
// (not drawn from the seed's random numbers) so that the search benchmark knows which words are
// common and which are rare.

const ENGLISH = `love day night street food dance music city rain sunset train market beach cat dog recipe
  travel coffee garden mountain river friends family party wedding festival morning home life summer
  winter cricket football guitar song cooking baking bread chai spicy sweet tea village road bike car
  ride walk run yoga gym workout school college exam study book art paint sketch photo camera light
  color blue green red gold sky cloud storm snow sea lake forest bird flower tree fruit mango
  rice curry vlog tutorial challenge prank comedy funny cute baby kids grandma story
  history science space moon star planet robot code game play win team match goal cup final
  fashion style makeup hair shoes dress shopping sale fresh new old first best last big small
  quiet loud fast slow happy sad weekend holiday trip hotel airport flight bus station bridge
  temple church mosque fort palace museum theatre cinema movie actor singer drummer dancer chef
  farmer painter teacher doctor pilot driver`
  .split(/\s+/)
  .filter(Boolean);

/** Hindi words in Devanagari (no nukta letters: their NFC and NFKC forms differ). */
export const HINDI = [
  'नमस्ते',
  'भारत',
  'संगीत',
  'खाना',
  'बारिश',
  'दोस्त',
  'शादी',
  'मौसम',
  'पानी',
  'सफर',
  'मुंबई',
  'दिल्ली',
  'त्योहार',
  'मिठाई',
  'गाना',
  'नाच',
  'सुबह',
  'रात',
  'प्यार',
  'घर',
  'बाजार',
  'चाय',
  'क्रिकेट',
  'होली',
  'दिवाली',
  'पहाड़',
  'नदी',
  'समुद्र',
  'किताब',
  'परिवार',
];

/** Accented Latin names: a search typed without the accents finds them. */
export const ACCENTED = [
  'José',
  'Zoë',
  'Renée',
  'Chloé',
  'Noël',
  'Inés',
  'Raúl',
  'Björn',
  'Søren',
  'François',
  'Léa',
  'Ramón',
  'Mónica',
  'Jürgen',
  'Zoé',
  'André',
];

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'ch', 'sh', 'tr', 'br', 'kl', 'st'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ee'];
const CODAS = ['', '', 'n', 'r', 'l', 's', 'k', 'm'];

/** Made-up words of two or three syllables, the same on every run. */
function madeUp(n: number, taken: Set<string>): string[] {
  const rand = rng(0x5eed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const out: string[] = [];
  while (out.length < n) {
    let w = '';
    const syllables = 2 + Math.floor(rand() * 2);
    for (let s = 0; s < syllables; s++) w += pick(ONSETS) + pick(VOWELS) + (s === syllables - 1 ? pick(CODAS) : '');
    if (!taken.has(w)) {
      taken.add(w);
      out.push(w);
    }
  }
  return out;
}

const VOCABULARY_SIZE = 3000;

/**
 * The vocabulary by rank (0 the most frequent): the English words in the order above, then the
 * Hindi words, the names and the made-up words shuffled together.
 */
export const VOCABULARY: readonly string[] = (() => {
  const english = [...new Set(ENGLISH)];
  const taken = new Set([...english, ...HINDI, ...ACCENTED.map((n) => n.toLowerCase())]);
  const rest = [...HINDI, ...ACCENTED, ...madeUp(VOCABULARY_SIZE - taken.size, taken)];
  const rand = rng(0xc0ffee);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [...english, ...rest];
})();

/** A draw of ranks 0…n-1 with P(rank r) proportional to 1 / (r + 1)^s: binary search in the cumulative weights. */
export function zipf(n: number, s: number, rand: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cumulative[r] = sum += 1 / (r + 1) ** s;
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Tags are vocabulary words written as #word: the accented names lower-cased, as a tag is filed. */
export const TAGS: readonly string[] = VOCABULARY.map((w) => w.toLowerCase());

// How many tags a video carries: most none or one, a few five.
const TAG_COUNTS = [0.3, 0.25, 0.18, 0.12, 0.09, 0.06];

export interface VideoTexts {
  title: string;
  description: string;
}

/** A video's title and description: Zipf-drawn words, and 0 to 5 Zipf-drawn #tags in the description. */
export function videoTexts(rand: () => number): () => VideoTexts {
  const word = zipf(VOCABULARY.length, 1, rand);
  const tag = zipf(TAGS.length, 1.1, rand);
  const words = (n: number) => {
    let text = VOCABULARY[word()]!;
    for (let i = 1; i < n; i++) text += ` ${VOCABULARY[word()]}`;
    return text;
  };
  return () => {
    const title = words(2 + Math.floor(rand() * 4));
    let description = words(5 + Math.floor(rand() * 10));
    let x = rand();
    let k = 0;
    while (k < TAG_COUNTS.length - 1 && x >= TAG_COUNTS[k]!) x -= TAG_COUNTS[k++]!;
    for (let i = 0; i < k; i++) description += ` #${TAGS[tag()]}`;
    return { title: title[0]!.toUpperCase() + title.slice(1), description };
  };
}

/** First names (with a handle stem each: a handle is a-z 0-9 _ .) and family names, in several languages. */
const FIRST: ReadonlyArray<readonly [string, string]> = [
  ['Asha', 'asha'],
  ['Ravi', 'ravi'],
  ['Meera', 'meera'],
  ['Arjun', 'arjun'],
  ['Priya', 'priya'],
  ['Kiran', 'kiran'],
  ['Neha', 'neha'],
  ['Vikram', 'vikram'],
  ['Anita', 'anita'],
  ['Rahul', 'rahul'],
  ['Lena', 'lena'],
  ['Omar', 'omar'],
  ['Mia', 'mia'],
  ['Noah', 'noah'],
  ['José', 'jose'],
  ['Zoë', 'zoe'],
  ['Renée', 'renee'],
  ['Chloé', 'chloe'],
  ['Björn', 'bjorn'],
  ['Inés', 'ines'],
  ['François', 'francois'],
  ['Søren', 'soren'],
  ['प्रिया', 'priya'],
  ['अर्जुन', 'arjun'],
  ['सीता', 'sita'],
  ['राहुल', 'rahul'],
  ['Yuki', 'yuki'],
  ['Chen', 'chen'],
  ['Fatima', 'fatima'],
  ['Kwame', 'kwame'],
];
const LAST = ['Rao', 'Sharma', 'Patel', 'Iyer', 'Khan', 'Singh', 'García', 'Müller', 'Núñez', 'Okafor', 'Smith', 'Nguyen', 'Costa', 'Dubois', 'शर्मा', 'वर्मा'];

/** Member i's name and the stem of their handle. */
export function memberName(i: number, rand: () => number): { name: string; stem: string } {
  const [first, stem] = FIRST[i % FIRST.length]!;
  return { name: `${first} ${LAST[Math.floor(rand() * LAST.length)]!}`, stem };
}
