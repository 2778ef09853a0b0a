// Pinch to zoom and drag to pan an SVG (its viewBox), with one thumb or two fingers; a wheel
// zooms too. A drag is told apart from a tap (taps still reach the cells), and the view never
// leaves the board.

const DRAG_PX = 8; // a finger that moved less than this tapped
const MAX_ZOOM = 5;

export class Zoom {
  constructor(svg, box) {
    this.svg = svg;
    this.home = { ...box };
    this.box = { ...box };
    this.pointers = new Map();
    this.dragged = false;
    this.apply();
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    for (const kind of ["pointerup", "pointercancel", "pointerleave"]) svg.addEventListener(kind, (e) => this.up(e));
    svg.addEventListener("wheel", (e) => { e.preventDefault(); this.zoomAt(e.clientX, e.clientY, e.deltaY < 0 ? 1.2 : 1 / 1.2); }, { passive: false });
    // A tap after a drag is not a tap on a cell.
    svg.addEventListener("click", (e) => { if (this.dragged) { e.stopPropagation(); e.preventDefault(); } }, true);
  }

  reset() { this.box = { ...this.home }; this.apply(); }

  get zoomed() { return this.box.w < this.home.w * 0.99; }

  apply() {
    const { x, y, w, h } = this.box;
    this.svg.setAttribute("viewBox", `${x.toFixed(2)} ${y.toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)}`);
  }

  scale() { // board units per screen pixel
    const rect = this.svg.getBoundingClientRect();
    return Math.max(this.box.w / Math.max(rect.width, 1), this.box.h / Math.max(rect.height, 1));
  }

  toBoard(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const s = this.scale();
    const cx = this.box.x + this.box.w / 2 + (clientX - rect.left - rect.width / 2) * s;
    const cy = this.box.y + this.box.h / 2 + (clientY - rect.top - rect.height / 2) * s;
    return [cx, cy];
  }

  zoomAt(clientX, clientY, factor) {
    const [px, py] = this.toBoard(clientX, clientY);
    const w = Math.min(this.home.w, Math.max(this.home.w / MAX_ZOOM, this.box.w / factor));
    const k = w / this.box.w;
    this.box = { x: px - (px - this.box.x) * k, y: py - (py - this.box.y) * k, w, h: this.box.h * k };
    this.clamp();
    this.apply();
  }

  clamp() {
    const { home, box } = this;
    box.x = Math.min(Math.max(box.x, home.x), home.x + home.w - box.w);
    box.y = Math.min(Math.max(box.y, home.y), home.y + home.h - box.h);
  }

  down(e) {
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    if (this.pointers.size === 1) this.dragged = false;
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      p.x = e.clientX; p.y = e.clientY;
      const after = Math.hypot(a.x - b.x, a.y - b.y);
      if (before > 0) this.zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, after / before);
      this.dragged = true;
      return;
    }
    const moved = Math.hypot(e.clientX - p.x0, e.clientY - p.y0);
    if (!this.dragged && moved < DRAG_PX) return;
    this.dragged = true;
    if (this.zoomed) {
      const s = this.scale();
      this.box.x -= (e.clientX - p.x) * s;
      this.box.y -= (e.clientY - p.y) * s;
      this.clamp();
      this.apply();
    }
    p.x = e.clientX; p.y = e.clientY;
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) setTimeout(() => { this.dragged = false; }, 0);
  }
}
