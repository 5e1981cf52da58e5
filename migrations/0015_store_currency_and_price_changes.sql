-- What the stores screens of the household app show (issue 36): a store's currency, each
-- product's newest price change, and products that left the feed.

-- ISO 4217, from the shop's public /meta.json at add and at each sync; NULL when it gives none.
ALTER TABLE stores ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$');

-- Product.recentPriceChange: a product's newest price event is the first entry of this index.
CREATE INDEX store_events_product_price ON store_events (product_id, id DESC)
    WHERE type IN ('PRICE_DROPPED', 'PRICE_INCREASED');

-- Store.products(includeRemoved: true): a store's products that left the feed, newest first.
CREATE INDEX products_removed ON products (store_id, removed_at DESC) WHERE removed_at IS NOT NULL;
