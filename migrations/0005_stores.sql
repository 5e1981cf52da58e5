-- Watched stores (public Shopify storefronts), their products and variants as last synced,
-- price history, change events with per-member read state, and notifications (the stores service).
-- Prices are integers in the store's minor unit (cents): Shopify's feed writes them as "25.00".

CREATE TABLE stores (
    id                    uuid        PRIMARY KEY,
    household_id          uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    -- Normalised: lower case, ASCII (IDNA), no scheme, port or path.
    domain                text        NOT NULL CHECK (length(domain) BETWEEN 1 AND 253),
    name                  text        NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    created_by            uuid        REFERENCES users (id) ON DELETE SET NULL,
    created_at            timestamptz NOT NULL,
    -- Denormalised for the store list: products not flagged removed, and the first images.
    product_count         integer     NOT NULL DEFAULT 0,
    preview_images        text[]      NOT NULL DEFAULT '{}',
    -- Successful syncs so far (the import included).
    sync_count            bigint      NOT NULL DEFAULT 0,
    last_synced_at        timestamptz,
    last_attempt_at       timestamptz,
    next_sync_at          timestamptz NOT NULL,
    -- Consecutive failures, for the back-off; the last error stays until a success.
    failure_count         integer     NOT NULL DEFAULT 0,
    last_error            text,
    last_error_message    text,
    last_error_status     integer,
    last_error_retry_after double precision,
    last_error_at         timestamptz,
    -- The instance syncing the store now, until the lease expires (a crashed instance's lease runs out).
    lease_owner           text,
    lease_expires_at      timestamptz,
    UNIQUE (household_id, domain)
);

CREATE INDEX stores_due ON stores (next_sync_at);

CREATE TABLE products (
    id                    uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id              uuid        NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    household_id          uuid        NOT NULL,
    shopify_id            bigint      NOT NULL,
    title                 text        NOT NULL,
    handle                text        NOT NULL,
    vendor                text        NOT NULL,
    product_type          text        NOT NULL,
    tags                  text[]      NOT NULL,
    published_at          timestamptz,
    shop_created_at       timestamptz,
    shop_updated_at       timestamptz,
    -- [{"src", "width", "height", "position"}…] in the feed's order; the signature detects changes.
    images                jsonb       NOT NULL,
    image_signature       text        NOT NULL,
    -- Listing columns: over the variants, cheapest and dearest price, and whether any is available.
    min_price             bigint      NOT NULL,
    max_price             bigint      NOT NULL,
    available             boolean     NOT NULL,
    -- lower(title, vendor, type, tags), searched with LIKE.
    search_key            text        NOT NULL,
    first_seen_at         timestamptz NOT NULL,
    last_changed_at       timestamptz NOT NULL,
    removed_at            timestamptz,
    -- A hash of everything synced about the product and its variants: unchanged products are
    -- skipped without comparing (or writing) their variants.
    content_hash          text        NOT NULL,
    UNIQUE (store_id, shopify_id)
);

CREATE INDEX products_title ON products (store_id, lower(title), id) WHERE removed_at IS NULL;
CREATE INDEX products_price ON products (store_id, min_price, id) WHERE removed_at IS NULL;
CREATE INDEX products_newest ON products (store_id, first_seen_at DESC, id) WHERE removed_at IS NULL;
CREATE INDEX products_changed ON products (store_id, last_changed_at DESC, id) WHERE removed_at IS NULL;

CREATE TABLE variants (
    id                    uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    product_id            uuid        NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    store_id              uuid        NOT NULL,
    shopify_id            bigint      NOT NULL,
    title                 text        NOT NULL,
    sku                   text,
    option1               text,
    option2               text,
    option3               text,
    position              integer     NOT NULL,
    price                 bigint      NOT NULL,
    compare_at_price      bigint,
    available             boolean     NOT NULL,
    UNIQUE (store_id, shopify_id)
);

CREATE INDEX variants_product ON variants (product_id, position);

-- A variant's values before a change (price history); deleted after the retention period.
CREATE TABLE variant_snapshots (
    id                    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    variant_id            uuid        NOT NULL REFERENCES variants (id) ON DELETE CASCADE,
    price                 bigint      NOT NULL,
    compare_at_price      bigint,
    available             boolean     NOT NULL,
    recorded_at           timestamptz NOT NULL
);

CREATE INDEX variant_snapshots_variant ON variant_snapshots (variant_id, recorded_at);
CREATE INDEX variant_snapshots_age ON variant_snapshots (recorded_at);

-- What a sync found changed; the id orders the feed and is its page cursor.
CREATE TABLE store_events (
    id                    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    household_id          uuid        NOT NULL,
    store_id              uuid        NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id            uuid        NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    variant_id            uuid        REFERENCES variants (id) ON DELETE CASCADE,
    type                  text        NOT NULL CHECK (type IN ('PRICE_DROPPED', 'PRICE_INCREASED', 'BACK_IN_STOCK',
                                      'OUT_OF_STOCK', 'NEW_PRODUCT', 'PRODUCT_REMOVED', 'IMAGES_CHANGED')),
    old_price             bigint,
    new_price             bigint,
    -- SMALL (< 10 %), MEDIUM (10–25 %), LARGE (> 25 %) for price changes.
    magnitude             text,
    created_at            timestamptz NOT NULL
);

CREATE INDEX store_events_household ON store_events (household_id, id);
CREATE INDEX store_events_store ON store_events (store_id, id);

-- Read state per member: every event of a store up to `read_up_to` is read, plus single events.
CREATE TABLE store_read_marks (
    user_id               uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    store_id              uuid        NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    read_up_to            bigint      NOT NULL,
    PRIMARY KEY (user_id, store_id)
);

CREATE TABLE store_event_reads (
    user_id               uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    event_id              bigint      NOT NULL REFERENCES store_events (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, event_id)
);

-- One per member and store per sync with changes, filtered by the member's preferences.
CREATE TABLE notifications (
    id                    uuid        PRIMARY KEY,
    user_id               uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    household_id          uuid        NOT NULL REFERENCES households (id) ON DELETE CASCADE,
    store_id              uuid        REFERENCES stores (id) ON DELETE CASCADE,
    title                 text        NOT NULL,
    body                  text        NOT NULL,
    priority              text        NOT NULL CHECK (priority IN ('LOW', 'NORMAL', 'HIGH')),
    -- Change counts by event type, e.g. {"PRICE_DROPPED": 3}.
    counts                jsonb       NOT NULL,
    created_at            timestamptz NOT NULL,
    read_at               timestamptz
);

CREATE INDEX notifications_user ON notifications (user_id, created_at, id);
