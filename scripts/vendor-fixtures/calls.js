// The public @klevu/core calls every capture makes, the same in node, jsdom and Chromium:
// klevuCalls(KlevuEvents, major) is a list of [name, call]. A plain script (no imports) so a
// browser page can load it with <script src> and node with require().
//
// Merchant-console metadata: an ordinary list (action null, as the console has it), a static
// banner and a filter rule, and a list for a customer segment. Products: a variant of a
// configurable product (id = group-variant), a Shopify variant (its own id) and a simple
// product (three equal ids), with and without a variantId.
function klevuCalls(E, major) {
  const meta = { recsKey: "k-rec-fixture-1", logic: "TRENDING", title: "Trending now",
    spotKey: "spot-home-1", spotName: "Home top", segmentKey: null, segmentName: null, action: null };
  const segmentMeta = { ...meta, recsKey: "k-rec-fixture-2", logic: "RECENTLY_VIEWED", title: "For you",
    segmentKey: "seg-returning", segmentName: "Returning shoppers" };
  const banner = { content_type: "image", resolution: "desktop",
    banner_image_url: "https://cdn.example.com/banners/sale.png", banner_alt_tag: "Winter sale", index: 1 };
  const composite = { id: "10023-BLK-42", itemGroupId: "10023", variantId: "BLK-42", name: "Trail running shoe",
    price: "89.90", salePrice: "89.90", currency: "EUR", brand: "Northpeak", category: "Mens;Shoes;Trainers;;Sale",
    url: "https://shop.example.com/trail-running-shoe" };
  const shopify = { id: "44120398987561", itemGroupId: "8012345678901", variantId: "44120398987561", name: "Wool beanie",
    price: "24.00", salePrice: "24.00", currency: "EUR", brand: "Northpeak", category: "Accessories;Hats",
    url: "https://shop.example.com/products/wool-beanie?variant=44120398987561" };
  const simple = { id: "31337", itemGroupId: "31337", name: "Water bottle", price: "12.00", salePrice: "12.00",
    currency: "EUR", brand: "Northpeak", category: "Accessories;Bottles", url: "https://shop.example.com/water-bottle" };
  const products = [composite, shopify, simple];
  const noVariant = (p) => { const { variantId, ...rest } = p; return rest; };

  // 1.x takes positional arguments; 2.x and later objects (but categoryMerchandisingProductClick
  // stayed positional up to 3.x).
  const calls = [];
  const add = (name, fn) => calls.push([name, fn]);
  if (major < 2) {
    add("view", () => E.recommendationView(meta, products));
    add("click", () => E.recommendationClick(meta, composite, 1, "BLK-42"));
    add("click-no-variant", () => E.recommendationClick(meta, noVariant(composite), 1));
    add("click-shopify", () => E.recommendationClick(meta, shopify, 2, shopify.variantId));
    add("click-simple", () => E.recommendationClick(meta, simple, 3));
    add("segment-view", () => E.recommendationView(segmentMeta, [shopify, simple]));
    add("buy", () => E.buy([{ amount: 2, product: composite, variantId: "BLK-42" }]));
    add("search", () => E.search("trail shoes", 12, "WILDCARD_AND"));
    add("search-click", () => E.searchProductClick(composite, "trail shoes", "BLK-42"));
    add("category-view", () => E.categoryMerchandisingView("Shoes", "Mens;Shoes", products, 0));
    add("category-click", () => E.categoryMerchandisingProductClick(composite, "Shoes", "Mens;Shoes", "BLK-42", 1));
    return calls;
  }
  const actions = major >= 4 ? [["", null], ["-static", "STATIC_CONTENT"], ["-filter", "FILTER"]] : [["", null]];
  for (const [suffix, action] of actions) {
    const m = { ...meta, action };
    const bannerInfo = action === "STATIC_CONTENT" ? banner : undefined;
    add("view" + suffix, () => E.recommendationView({ recommendationMetadata: m, products: action === "STATIC_CONTENT" ? [] : products, bannerInfo }));
    add("click" + suffix, () => E.recommendationClick(action === "STATIC_CONTENT"
      ? { recommendationMetadata: m, bannerInfo }
      : { recommendationMetadata: m, product: composite, productIndexInList: 1, variantId: "BLK-42" }));
  }
  add("click-no-variant", () => E.recommendationClick({ recommendationMetadata: meta, product: noVariant(composite), productIndexInList: 1 }));
  add("click-shopify", () => E.recommendationClick({ recommendationMetadata: meta, product: shopify, productIndexInList: 2, variantId: shopify.variantId }));
  add("click-shopify-no-variant", () => E.recommendationClick({ recommendationMetadata: meta, product: noVariant(shopify), productIndexInList: 2 }));
  add("click-simple", () => E.recommendationClick({ recommendationMetadata: meta, product: simple, productIndexInList: 3 }));
  add("segment-view", () => E.recommendationView({ recommendationMetadata: segmentMeta, products: [shopify, simple] }));
  add("segment-click", () => E.recommendationClick({ recommendationMetadata: segmentMeta, product: shopify, productIndexInList: 1, variantId: shopify.variantId }));
  add("buy", () => E.buy({ items: [{ amount: 2, product: composite, variantId: "BLK-42", orderId: "100000123", orderLineId: "1" }] }));
  add("search", () => E.search({ term: "trail shoes", totalResults: 12, typeOfSearch: "WILDCARD_AND" }));
  add("search-click", () => E.searchProductClick({ product: composite, searchTerm: "trail shoes", variantId: "BLK-42" }));
  add("category-view", () => E.categoryMerchandisingView({ categoryTitle: "Shoes", klevuCategory: "Mens;Shoes", products, pageStartsFrom: 0 }));
  if (major >= 4) {
    add("category-click", () => E.categoryMerchandisingProductClick({ product: composite, categoryTitle: "Shoes", klevuCategory: "Mens;Shoes", variantId: "BLK-42", productPosition: 1 }));
    add("banner-click-v1", () => E.imageBannerClick({ term: "shoes", bannerId: "b-1", bannerName: "Winter sale", imageUrl: banner.banner_image_url, targetUrl: "https://shop.example.com/sale" }));
  } else {
    add("category-click", () => E.categoryMerchandisingProductClick(composite, "Shoes", "Mens;Shoes", "BLK-42", 1));
  }
  return calls;
}

// In a browser only: a returning visitor, whose session id the SDK's visitor service gave on an
// earlier page and 5.x keeps in localStorage (its events then carry user_profile.sessionId;
// older versions have no session and send what they sent before). The view and click again.
const RETURNING_SESSION_ID = "fixture-session-7f3a";
function klevuReturningCalls(E, major, localStorage) {
  const again = Object.fromEntries(klevuCalls(E, major));
  return [
    ["returning-view", () => {
      localStorage.setItem("klevu-user-sessionId", RETURNING_SESSION_ID);
      return again.view();
    }],
    ["returning-click", () => again.click()],
  ];
}
if (typeof module !== "undefined") module.exports = { klevuCalls, klevuReturningCalls };
