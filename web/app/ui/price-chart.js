// A product's lowest price over time, drawn as SVG from its price changes in the local copy (works
// offline), with the same points as a table for those who do not see the chart.

import { h } from "./dom.js";
import { money, when } from "./format.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 */
function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/**
 * The lowest price at each change: every variant starts at the price before its first change (or its
 * price now when it never changed), each change moves its variant, and the product's price is the
 * cheapest variant's. The last point is now.
 * @param {import("../types.js").Product} product
 * @param {import("../types.js").StoreEvent[]} events the product's price changes, any order
 * @param {number} [now]
 * @returns {{at: string, price: number}[]}
 */
export function lowestPrices(product, events, now = Date.now()) {
  const changes = events.filter((e) => e.oldPrice !== null && e.newPrice !== null).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  /** @type {Map<string, number>} by variant title (events name variants by title) */
  const prices = new Map();
  for (const variant of product.variants) prices.set(variant.title, Number(variant.price));
  for (const change of [...changes].reverse()) prices.set(change.variantTitle ?? "", Number(change.oldPrice));
  const lowest = () => Math.min(...prices.values());
  if (prices.size === 0) return [];
  /** @type {{at: string, price: number}[]} */
  const points = [];
  const start = changes[0]?.createdAt;
  if (start) points.push({ at: new Date(Date.parse(start) - 1).toISOString(), price: lowest() });
  for (const change of changes) {
    prices.set(change.variantTitle ?? "", Number(change.newPrice));
    points.push({ at: change.createdAt, price: lowest() });
  }
  points.push({ at: new Date(now).toISOString(), price: Math.min(...product.variants.map((v) => Number(v.price))) });
  return points;
}

/**
 * The chart (`role="img"`, named "Price history of …") and its table.
 * @param {import("../types.js").Product} product
 * @param {{at: string, price: number}[]} points
 * @param {string | null} currency
 * @param {string} timeZone
 */
export function priceChart(product, points, currency, timeZone) {
  const prices = points.map((p) => p.price);
  const low = Math.min(...prices), high = Math.max(...prices);
  const changes = points.length - 2;
  const summary = changes <= 0
    ? `Price history of ${product.title}: ${money(points.at(-1)?.price ?? product.minPrice, currency)}, unchanged since Hearth started watching.`
    : `Price history of ${product.title}: ${changes} ${changes === 1 ? "change" : "changes"}, from ${money(points[0].price, currency)} to ${money(points.at(-1)?.price, currency)}; lowest ${money(low, currency)}, highest ${money(high, currency)}.`;
  const width = 600, height = 200, pad = 8;
  const first = Date.parse(points[0]?.at ?? ""), last = Date.parse(points.at(-1)?.at ?? "");
  const span = Math.max(last - first, 1), range = Math.max(high - low, 0.01);
  /** @param {{at: string, price: number}} p */
  const x = (p) => pad + ((Date.parse(p.at) - first) / span) * (width - 2 * pad);
  /** @param {number} price */
  const y = (price) => height - pad - ((price - low) / range) * (height - 2 * pad) * (high === low ? 0 : 1) - (high === low ? (height - 2 * pad) / 2 : 0);
  // A step line: a price holds until the next change.
  let path = "";
  points.forEach((point, index) => {
    const px = x(point).toFixed(1), py = y(point.price).toFixed(1);
    if (index === 0) path = `M${px},${py}`;
    else path += `H${px}V${py}`;
  });
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, class: "price-chart", preserveAspectRatio: "none" });
  chart.append(svg("path", { d: path, class: "price-line", fill: "none" }));
  for (const point of points.slice(1, -1)) chart.append(svg("circle", { cx: x(point).toFixed(1), cy: y(point.price).toFixed(1), r: 4, class: "price-point" }));
  const table = h("details", { class: "price-table" }, h("summary", {}, "Price history as a table"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "When"), h("th", { scope: "col" }, "Lowest price"))),
      h("tbody", {}, points.map((point, index) => h("tr", {},
        h("td", {}, index === points.length - 1 ? "Now" : when(point.at, timeZone)), h("td", {}, money(point.price, currency)))))));
  return h("figure", { class: "price-history" }, chart, h("figcaption", { class: "hint" }, "The lowest price over time; each dot is a change."), table);
}
