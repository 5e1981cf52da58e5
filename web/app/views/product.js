// One product from the local copy: price and stock per variant, a link to the shop, its price history
// chart (from its price changes, offline) and its recent changes.

import { h, replace } from "../ui/dom.js";
import { changeItem } from "../ui/changes.js";
import { money } from "../ui/format.js";
import { lowestPrices, priceChart } from "../ui/price-chart.js";
import { markEventRead } from "../areas/stores.js";

/**
 * @param {import("../app.js").App} app
 * @param {string} id
 */
export function productView(app, id) {
  const heading = h("h1", { id: "product-heading" });
  const body = h("div", {});
  const element = h("section", { "aria-labelledby": "product-heading" }, heading, body);
  let drawn = "";

  function update() {
    const product = app.lists.productById.get(id);
    if (!product) {
      heading.textContent = "Product not found";
      replace(body, h("p", {}, "This product is not in the household on screen (or it left its store). ", h("a", { href: "/stores" }, "All stores")));
      drawn = "";
      return;
    }
    const store = app.lists.stores.find((s) => s.id === product.storeId);
    const currency = store?.currency ?? null;
    const events = app.lists.eventList.filter((event) => event.productId === id);
    const signature = `${product.version}|${events.map((e) => `${e.id}:${e.read}`).join()}|${currency}`;
    if (signature === drawn) return;
    drawn = signature;
    heading.textContent = product.title;
    const zone = app.household?.timeZone ?? "UTC";
    const prices = events.filter((e) => e.type === "PRICE_DROPPED" || e.type === "PRICE_INCREASED");
    const price = product.minPrice === product.maxPrice ? money(product.minPrice, currency)
      : `${money(product.minPrice, currency)} to ${money(product.maxPrice, currency)}`;
    replace(body,
      h("p", { class: "task-meta" },
        store ? h("a", { href: `/stores/${store.id}` }, store.name) : null,
        product.vendor ? h("span", {}, product.vendor) : null, product.productType ? h("span", {}, product.productType) : null),
      h("p", { class: "product-price" }, h("strong", {}, price), ` · ${product.available ? "In stock" : "Out of stock"}`),
      h("p", {}, h("a", { href: product.url, rel: "noopener noreferrer", target: "_blank" }, `Open in ${store?.name ?? "the shop"}`)),
      h("h2", {}, "Price history"),
      priceChart(product, lowestPrices(product, prices), currency, zone),
      h("h2", {}, "Variants"),
      h("table", { class: "variants" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Variant"), h("th", { scope: "col" }, "Price"), h("th", { scope: "col" }, "Stock"))),
        h("tbody", {}, product.variants.map((variant) => h("tr", {},
          h("th", { scope: "row" }, variant.title),
          h("td", {}, money(variant.price, currency), variant.compareAtPrice && Number(variant.compareAtPrice) > Number(variant.price)
            ? h("s", { class: "hint" }, ` ${money(variant.compareAtPrice, currency)}`) : null),
          h("td", {}, variant.available ? "In stock" : "Out of stock"))))),
      h("h2", {}, "Changes"),
      events.length === 0 ? h("p", { class: "empty" }, "No changes since Hearth started watching.")
        : h("ul", { class: "changes", "aria-label": "Changes of this product" },
          events.map((event) => changeItem(event, { currency, timeZone: zone, showStore: false, markRead: (eventId) => void markEventRead(app, eventId) }))));
  }
  update();
  return { element, update };
}
