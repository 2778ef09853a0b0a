// The page's words in English and Russian (the person's language, as the bot knows it), one
// section a game and one for the page around them: a game's board reads its own section first,
// so that a tile is «тайл» in «Гениально» and «жетон» in Trio, as the bot and the rulebooks say.
// The table between the markers is strict JSON: tests/bot/test_webapp_words.py holds it to each
// game's glossary (bot/games/glossary.py) and checks that every word the page uses has Russian.

const RU = /* words */ {
  "page": {
    "Your turn!": "Ваш ход!",
    "Now: {name}": "Сейчас ходит: {name}",
    "Game over.": "Игра окончена.",
    "Watching": "Вы смотрите",
    "you": "вы",
    "Rules:": "Правила:",
    "Your games": "Ваши игры",
    "You have no running game. Start one in a group with /new.": "У вас нет идущих игр. Начните игру в группе командой /new.",
    "This page has expired: open it again from the chat.": "Страница устарела: откройте её снова из чата.",
    "This game is not yours to see.": "Эта игра вам недоступна.",
    "Open this page from Telegram.": "Откройте эту страницу из Telegram.",
    "No connection, trying again…": "Нет связи, пробую снова…",
    "not started yet": "ещё не началась",
    "This game has not started yet: {n} of {min}–{max} players.": "Игра ещё не началась: игроков {n}, нужно от {min} до {max}.",
    "At the table: {names}": "За столом: {names}",
    "Join": "Играю",
    "Open the private chat": "Открыть личный чат",
    "The game is full.": "Мест нет.",
    "This game was cancelled before it started.": "Эту игру отменили до начала.",
    "You are in: the game starts when the host taps Start.": "Вы в игре. Она начнётся, когда в лобби нажмут «Начать».",
    "Reset the view": "Весь стол",
    "Turn": "Повернуть",
    "red": "красный",
    "orange": "оранжевый",
    "yellow": "жёлтый",
    "green": "зелёный",
    "blue": "синий",
    "purple": "фиолетовый",
    "pink": "розовый"
  },
  "genial": {
    "the board": "доска",
    "Tap a tile.": "Выберите тайл.",
    "Tap a lit cell; tap the tile again to turn it.": "Нажмите на подсвеченную клетку; нажмите на тайл ещё раз, чтобы повернуть его.",
    "This tile fits nowhere.": "Этот тайл некуда положить.",
    "Play": "Сходить",
    "Swap the rack": "Обменять подставку",
    "Keep it": "Оставить",
    "Your rack has no tile with your lowest colour: swap all six for new ones, or keep them?": "На подставке нет тайла вашего самого слабого цвета: обменять все шесть на новые или оставить?",
    "🎉 Bonus placement: one more tile.": "🎉 Бонусный ход: ещё один тайл.",
    "🎉 Bonus placement: the tile drawn from the bag.": "🎉 Бонусный ход: тайл из мешка.",
    "First tile: next to a printed symbol nobody touches yet.": "Первый тайл кладётся рядом с символом на доске, которого ещё никто не касается.",
    "bag: {n}": "в мешке: {n}",
    "Ingenious!": "Гениально!",
    "{n} lost at the top": "сверх предела пропадёт: {n}",
    "Underlined: the lowest colour, the one that decides the places. A colour stops at {max}.": "Подчёркнут самый слабый цвет: по нему определяются места. Шкала цвета кончается на {max}.",
    "{cell}: +{n}": "{cell}: +{n}",
    "Tile {n}: {colours}": "Тайл {n}: {colours}",
    "Tile drawn from the bag: {colours}": "Тайл из мешка: {colours}"
  },
  "cones": {
    "Pile {n}": "Башня {n}",
    "{top} on top, {base} base, {n} chips": "сверху: {top}, основание: {base}, фишек: {n}",
    "bare {base} base": "основание: {base}, фишек нет",
    "closed this turn": "на этот ход закрыта",
    "Chip: {colour}, {n} left": "Фишка: {colour}, осталось {n}",
    "Tap a chip, then a pile.": "Выберите фишку, затем башню.",
    "Tap a lit pile.": "Выберите подсвеченную башню.",
    "{colour} on pile {pile}:": "{colour} на башню {pile}:",
    "it covers the {base} base and the pile becomes {colour}.": "основание ({base}) закроется, цвет башни станет {colour}.",
    "the pile turns from {before} to {colour}.": "цвет башни был {before}, станет {colour}.",
    "both {colour} chips leave the game and the pile is {after} again.": "обе фишки ({colour}) уйдут из игры, и цвет башни снова станет {after}.",
    "Piles of your goal colour: {now} → {then}.": "Башен вашего цвета: {now} → {then}.",
    "Play": "Положить",
    "Your secret goal:": "Ваша тайная цель:",
    "piles of it now: {n}": "башен этого цвета сейчас: {n}",
    "Piles per colour:": "Башен каждого цвета:",
    "chips left: {n}": "осталось фишек: {n}",
    "goal:": "цель:",
    "{n} piles": "башен: {n}"
  },
  "lucky": {
    "Draw": "Тянуть",
    "Bank": "Забрать",
    "Take {colour}": "Взять {colour}",
    "a match: {p} %": "шанс совпадения: {p} %",
    "you get {tokens}": "вы получите: {tokens}",
    "over the goal, back to the reserve: {tokens}": "сверх цели — обратно в резерв: {tokens}",
    "and you win!": "и вы побеждаете!",
    "bonus turns: {n}": "призовых ходов: {n}",
    "one token from the centre, instead of drawing": "один жетон из центра, вместо того чтобы тянуть",
    "Centre": "Центр",
    "reserve: {n}": "в резерве: {n}",
    "goal: {n} of each colour": "цель: {n} каждого цвета",
    "empty": "пусто",
    "Zone:": "Зона сбора:",
    "Bonus turn!": "Призовой ход!",
    "More bonus turns after it: {n}": "После него ещё призовых ходов: {n}",
    "Bonus turns to come: {n}": "Впереди призовых ходов: {n}",
    "Underlined: each player's weakest colour; places go by it. ✓: the goal reached.": "Подчёркнут самый слабый цвет: места — по нему. ✓ — цель по цвету собрана."
  },
  "trio": {
    "the table": "стол",
    "Tile: {tile}": "Жетон: {tile}",
    "Your tiles:": "Ваши жетоны:",
    "Place {k}": "Место {k}",
    "Place {k}: {tile}.": "Место {k}: {tile}.",
    "Sets formed: {n}.": "Получится сетов: {n}.",
    "Your last tile: you win!": "Это последний жетон: вы побеждаете!",
    "Lay it": "Выложить",
    "Tap a numbered mark: the tile goes on the two cells beside it.": "Нажмите на номер: жетон ляжет на две клетки рядом с ним.",
    "The die shows {face}: lay a tile touching a ringed symbol so that it forms a set. Tap a tile.": "На кубике: {face}. Выложите жетон рядом с обведённым символом так, чтобы получился сет. Выберите жетон.",
    "You cannot lay any tile: one is drawn for you.": "Вам нечего выложить: жетон из резерва берётся за вас.",
    "The die:": "Кубик:",
    "reserve: {n}": "в резерве: {n}",
    "tiles in hand: {n}": "жетонов на руке: {n}",
    "hexagon": "шестиугольник",
    "circle": "круг",
    "star": "звезда",
    "red-hexagon": "красный шестиугольник",
    "red-circle": "красный круг",
    "red-star": "красная звезда",
    "blue-hexagon": "синий шестиугольник",
    "blue-circle": "синий круг",
    "blue-star": "синяя звезда",
    "yellow-hexagon": "жёлтый шестиугольник",
    "yellow-circle": "жёлтый круг",
    "yellow-star": "жёлтая звезда"
  }
} /* end words */;

// The English words that are not their own msgid (a key naming a thing).
const EN = {
  "red-hexagon": "red hexagon", "red-circle": "red circle", "red-star": "red star",
  "blue-hexagon": "blue hexagon", "blue-circle": "blue circle", "blue-star": "blue star",
  "yellow-hexagon": "yellow hexagon", "yellow-circle": "yellow circle", "yellow-star": "yellow star",
};

let lang = "en";

export function setLang(code) { lang = code === "ru" ? "ru" : "en"; document.documentElement.lang = lang; }
export function getLang() { return lang; }

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function lookup(sections, msgid) {
  if (lang === "ru") {
    for (const section of sections) {
      const text = RU[section] && RU[section][msgid];
      if (text) return text;
    }
  }
  return EN[msgid] || msgid;
}

// The page's own words (around the boards).
export function t(msgid, values = {}) {
  return fill(lookup(["page"], msgid), values);
}

// A game's words: its own section, then the page's.
export function wordsOf(kind) {
  return (msgid, values = {}) => fill(lookup([kind, "page"], msgid), values);
}
