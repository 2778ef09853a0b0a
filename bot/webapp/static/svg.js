// Small SVG helpers shared by the boards: elements, the six colours and their shapes
// (a colour always comes with a shape, for colour-blind players; as on the table picture).

const NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

export const COLOURS = {
  red: "#d63031", orange: "#f08c14", yellow: "#f0c81e", green: "#2ea043",
  blue: "#286ec8", purple: "#8c46aa", white: "#fafafa", black: "#232323", pink: "#eb78aa",
};
export const SHAPES = {
  red: "circle", orange: "star", yellow: "sun", green: "hexagon", blue: "ring", purple: "diamond",
  white: "square", black: "cross", pink: "triangle",
};

function star(cx, cy, r, points, inner) {
  const out = [];
  for (let i = 0; i < points * 2; i++) {
    const radius = i % 2 ? r * inner : r;
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    out.push(`${(cx + radius * Math.cos(a)).toFixed(2)},${(cy + radius * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(" ");
}

export function hexPoints(cx, cy, r, pointy = true) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i + (pointy ? -90 : 0));
    out.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(" ");
}

// A named shape centred at (cx, cy), radius r.
export function shape(parent, name, cx, cy, r, { fill = "#fff", stroke = "none", width = 0 } = {}) {
  const style = { fill, stroke, "stroke-width": width };
  switch (name) {
    case "circle": return el("circle", { cx, cy, r, ...style }, parent);
    case "ring": return el("circle", { cx, cy, r: r * 0.72, fill: "none", stroke: fill, "stroke-width": r * 0.45 }, parent);
    case "star": return el("polygon", { points: star(cx, cy, r, 5, 0.45), ...style }, parent);
    case "sun": return el("polygon", { points: star(cx, cy, r, 8, 0.62), ...style }, parent);
    case "hexagon": return el("polygon", { points: hexPoints(cx, cy, r, false), ...style }, parent);
    case "diamond": return el("polygon", { points: `${cx},${cy - r} ${cx + r * 0.75},${cy} ${cx},${cy + r} ${cx - r * 0.75},${cy}`, ...style }, parent);
    case "square": return el("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...style }, parent);
    case "triangle": return el("polygon", { points: `${cx},${cy - r} ${cx + r * 0.9},${cy + r * 0.7} ${cx - r * 0.9},${cy + r * 0.7}`, ...style }, parent);
    case "cross": return el("path", { d: `M${cx - r * 0.7},${cy - r * 0.7}L${cx + r * 0.7},${cy + r * 0.7}M${cx + r * 0.7},${cy - r * 0.7}L${cx - r * 0.7},${cy + r * 0.7}`, fill: "none", stroke: fill, "stroke-width": r * 0.4 }, parent);
    default: return el("circle", { cx, cy, r, ...style }, parent);
  }
}

// A colour chip: the colour's shape on its colour, for text lines ("🔴 12" on a page).
export function chip(colour, size = 18) {
  const svg = el("svg", { viewBox: "-10 -10 20 20", width: size, height: size, class: "chip", role: "img", "aria-label": colour });
  el("circle", { cx: 0, cy: 0, r: 10, fill: COLOURS[colour] || "#999" }, svg);
  shape(svg, SHAPES[colour], 0, 0, 5.5, { fill: "#fff" });
  return svg;
}

export function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
