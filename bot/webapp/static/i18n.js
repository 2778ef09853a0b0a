// The page's words in English and Russian (the person's language, as the bot knows it).

const RU = {
  "Your turn!": "Ваш ход!",
  "Now: {name}": "Сейчас ходит: {name}",
  "Tap a tile.": "Выберите фишку.",
  "Tap a lit cell; tap the tile again to turn it.": "Нажмите на подсвеченную клетку; нажмите на фишку ещё раз, чтобы повернуть её.",
  "This tile fits nowhere.": "Этой фишке некуда встать.",
  "Play": "Сходить",
  "Turn": "Повернуть",
  "Swap the rack": "Обменять все",
  "Keep it": "Оставить",
  "Your rack has no tile with your lowest colour: swap all six for new ones, or keep them?":
    "В вашем наборе нет фишки вашего наименьшего цвета: обменять все шесть на новые или оставить?",
  "🎉 Bonus placement: one more tile.": "🎉 Бонусный ход: ещё одна фишка.",
  "🎉 Bonus placement: the tile drawn from the bag.": "🎉 Бонусный ход: фишка из мешка.",
  "First tile: next to a printed symbol nobody touches yet.": "Первая фишка: рядом с печатным символом, которого ещё никто не касается.",
  "Game over.": "Игра окончена.",
  "bag: {n}": "в мешке: {n}",
  "Your games": "Ваши игры",
  "You have no running game. Start one in a group with /new.": "У вас нет идущих игр. Начните игру в группе командой /new.",
  "This page has expired: open it again from the chat.": "Страница устарела: откройте её снова из чата.",
  "This game is not yours to see.": "Эта игра вам недоступна.",
  "Open this page from Telegram.": "Откройте эту страницу из Telegram.",
  "Watching": "Вы смотрите",
  "Ingenious!": "Гениально!",
  "{n} lost at the top": "{n} сгорело на вершине",
  "No connection, trying again…": "Нет связи, пробую снова…",
  "Reset the view": "Весь стол",
  "pool: {n}": "в резерве: {n}",
  "hand: {n}": "на руке: {n}",
  "centre": "центр",
  "reserve: {n}": "в запасе: {n}",
  "Piles per colour:": "Башен каждого цвета:",
  "chips left: {n}": "осталось фишек: {n}",
  "die": "кубик",
  "target: {n}": "цель: {n}",
  "red": "красный", "blue": "синий", "yellow": "жёлтый",
  "hexagon": "шестиугольник", "circle": "круг", "star": "звезда",
};

let lang = "en";

export function setLang(code) { lang = code === "ru" ? "ru" : "en"; document.documentElement.lang = lang; }
export function getLang() { return lang; }

export function t(msgid, values = {}) {
  const text = (lang === "ru" && RU[msgid]) || msgid;
  return text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}
