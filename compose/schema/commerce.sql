-- Schema of the unsharded `commerce` keyspace. `customer` and `corder` are moved to the sharded
-- `customer` keyspace by the MoveTables workflow `commerce2customer`; `product` stays.
CREATE TABLE IF NOT EXISTS product (
  sku VARBINARY(128) NOT NULL,
  description VARBINARY(128),
  price BIGINT,
  PRIMARY KEY (sku)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS customer (
  customer_id BIGINT NOT NULL AUTO_INCREMENT,
  email VARBINARY(128),
  PRIMARY KEY (customer_id)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS corder (
  order_id BIGINT NOT NULL AUTO_INCREMENT,
  customer_id BIGINT,
  sku VARBINARY(128),
  price BIGINT,
  PRIMARY KEY (order_id)
) ENGINE = InnoDB;

-- Sequences for the moved tables' auto_increment columns once they are sharded (customer-vschema.json).
CREATE TABLE IF NOT EXISTS customer_seq (id INT, next_id BIGINT, cache BIGINT, PRIMARY KEY (id)) COMMENT 'vitess_sequence';
CREATE TABLE IF NOT EXISTS corder_seq (id INT, next_id BIGINT, cache BIGINT, PRIMARY KEY (id)) COMMENT 'vitess_sequence';
