// The bot's API, with Telegram's signed initData on every request (the server checks it).

export class Api {
  constructor(initData) {
    this.initData = initData;
  }

  async request(path, { method = "GET", body, etag, signal } = {}) {
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
  placements(id, tile) { return this.request(`games/${id}/placements?tile=${encodeURIComponent(tile)}`); }
  move(id, turn, action) { return this.request(`games/${id}/move`, { method: "POST", body: { turn, action } }); }
}
