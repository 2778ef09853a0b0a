// The bot's API, with Telegram's signed initData on every request (the server checks it).

function asking(step) {
  const body = document.body;
  body.dataset.asking = String(Number(body.dataset.asking || 0) + step);
}

// The page's words in a language (the same for everyone, so no signature and not the API): what
// the page says before it knows whose it is, when /me cannot answer. {lang, words}, or null.
export async function wordsIn(lang) {
  try {
    const response = await fetch(`words/${encodeURIComponent(lang)}`);
    return response.ok ? await response.json() : null;
  } catch (_) {
    return null;
  }
}

export class Api {
  constructor(initData) {
    this.initData = initData;
  }

  // Asked too fast (429): the same request a moment later, a few times. The requests a tap made
  // and not yet answered are counted on the page (body[data-asking]), long polls aside: tests and
  // the bench wait for 0 before they look.
  async request(path, options = {}) {
    const counted = !path.includes("wait=1");
    if (counted) asking(1);
    try {
      for (let attempt = 0; ; attempt++) {
        const answer = await this.once(path, options);
        if (answer.status !== 429 || attempt === 3) return answer;
        await new Promise((done) => setTimeout(done, 1000 * (attempt + 1)));
      }
    } finally {
      if (counted) asking(-1);
    }
  }

  async once(path, { method = "GET", body, etag, signal } = {}) {
    const headers = { Authorization: `tma ${this.initData}` };
    if (etag) headers["If-None-Match"] = etag;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`api/${path}`, {
      method, headers, signal, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = response.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await response.json() : null;
    return { status: response.status, data, etag: response.headers.get("ETag") };
  }

  me() { return this.request("me"); }
  game(id, etag, wait, signal) {
    return this.request(`games/${id}${wait ? "?wait=1" : ""}`, { etag, signal });
  }
  // What else a game answers (its kit's page queries): ask(id, "placements", {tile: 2}).
  ask(id, query, params) {
    return this.request(`games/${id}/ask/${query}?${new URLSearchParams(params)}`);
  }
  move(id, turn, action) { return this.request(`games/${id}/move`, { method: "POST", body: { turn, action } }); }
  join(id) { return this.request(`games/${id}/join`, { method: "POST", body: {} }); }
}
