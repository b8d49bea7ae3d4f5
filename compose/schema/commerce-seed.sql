-- A few rows for the MoveTables copy phase, one statement per line (the init service sends each line
-- on its own to the commerce primary). INSERT IGNORE keeps a re-run of the init service harmless.
INSERT IGNORE INTO product (sku, description, price) VALUES ('SKU-1001', 'Monitor', 100), ('SKU-1002', 'Keyboard', 30);
INSERT IGNORE INTO customer (customer_id, email) VALUES (1, 'alice@example.com'), (2, 'bob@example.com'), (3, 'carol@example.com'), (4, 'dan@example.com'), (5, 'eve@example.com');
INSERT IGNORE INTO corder (order_id, customer_id, sku, price) VALUES (1, 1, 'SKU-1001', 100), (2, 2, 'SKU-1002', 30), (3, 3, 'SKU-1002', 30), (4, 4, 'SKU-1001', 100), (5, 5, 'SKU-1002', 30);
INSERT IGNORE INTO customer_seq (id, next_id, cache) VALUES (0, 1000, 100);
INSERT IGNORE INTO corder_seq (id, next_id, cache) VALUES (0, 1000, 100);
