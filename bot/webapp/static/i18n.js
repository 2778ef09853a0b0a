// The page's words, in the person's language: the bot sends them from its catalogues
// (bot/words/locales/<lang>/LC_MESSAGES/*.po), in /api/me, one section for the page around the
// boards ("page") and one per game's board ("page:<game>"): a game's board reads its own
// section first, so that a piece has the word its game gives it (a tile of Ingenious and one of
// Trio are two words in Russian), as the bot and the rulebooks say. A msgid is the English text;
// a word a catalogue lacks shows in English.

let words = {};

// The words the server sent for the language ``code`` (section → msgid → text).
export function setWords(code, table) {
  words = table || {};
  document.documentElement.lang = code;
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function lookup(sections, msgid) {
  for (const section of sections) {
    const text = words[section] && words[section][msgid];
    if (text) return text;
  }
  return msgid;
}

// The page's own words (around the boards).
export function t(msgid, values = {}) {
  return fill(lookup(["page"], msgid), values);
}

// A game's words: its own section, then the page's.
export function wordsOf(kind) {
  return (msgid, values = {}) => fill(lookup([`page:${kind}`, "page"], msgid), values);
}
