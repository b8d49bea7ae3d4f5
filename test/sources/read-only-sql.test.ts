import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkReadOnlyStatement,
  checkReadOnlyStatements,
  splitSqlStatements,
} from '../../src/sources/read-only-sql.js';

describe('checkReadOnlyStatement', () => {
  const accepted = [
    "select id, workflow from _vt.vreplication where db_name = 'vt_customer'",
    '/* vtpreflight */ SELECT 1',
    'SELECT 1;',
    'SELECT 1; -- trailing comment',
    'SELECT 1 ; /* trailing */ ',
    "SHOW VARIABLES LIKE 'gtid_mode'",
    "select ';' as semi, 'into' as word, \"for update\" as x from dual",
    'select `into` from t',
    'select t.into from t',
    "select 'it''s; fine', 'back\\'slash;' from dual",
    '# comment\nselect @@gtid_purged',
    'select 1 /*+ MAX_EXECUTION_TIME(1000) */',
  ];
  for (const sql of accepted) {
    test(`accepts: ${sql.replace(/\n/g, ' ')}`, () => assert.deepEqual(checkReadOnlyStatement(sql), { ok: true }));
  }

  const refused: [string, RegExp][] = [
    ['', /empty statement/],
    ['/* only a comment */', /empty statement/],
    ['delete from _vt.vreplication', /not a SELECT or SHOW statement \(starts with DELETE\)/],
    ["update _vt.vreplication set state = 'Stopped'", /starts with UPDATE/],
    ['  insert into t values (1)', /starts with INSERT/],
    ['SET GLOBAL read_only = 1', /starts with SET/],
    ['(select 1)', /starts with \(/],
    ['with x as (select 1) delete from t', /starts with WITH/],
    ['select 1; drop table t', /multiple statements/],
    ['select 1;;', /multiple statements/],
    ["select * from t into outfile '/tmp/x'", /INTO writes/],
    ['select 1 into @x', /INTO writes/],
    ['select * from _vt.vreplication for update', /locking read \(FOR UPDATE\)/],
    ['select * from t for share', /locking read \(FOR SHARE\)/],
    ['select * from t lock in share mode', /LOCK IN SHARE MODE/],
    ['select 1 /*! ; drop table t */', /executable comments/],
    ['select 1 /*M! drop */', /executable comments/],
    ["select 'unterminated", /unterminated quoted/],
    ['select 1 /* unterminated', /unterminated comment/],
    ['-- comment\ndelete from t', /starts with DELETE/],
  ];
  for (const [sql, reason] of refused) {
    test(`refuses: ${JSON.stringify(sql)}`, () => {
      const v = checkReadOnlyStatement(sql);
      assert.equal(v.ok, false);
      assert.match((v as { reason: string }).reason, reason);
    });
  }
});

describe('splitSqlStatements and checkReadOnlyStatements (multi-statement batches)', () => {
  test('splits at top-level semicolons only: strings, identifiers and comments keep theirs', () => {
    assert.deepEqual(splitSqlStatements('SELECT \'a;b\', `c;d`, "e;f" /* g;h */ FROM t; SELECT 2 -- x;y\n;  '), [
      'SELECT \'a;b\', `c;d`, "e;f" /* g;h */ FROM t',
      'SELECT 2 -- x;y',
    ]);
    assert.deepEqual(splitSqlStatements("SELECT 'it''s; \\'x;'; SHOW TABLES"), [
      "SELECT 'it''s; \\'x;'",
      'SHOW TABLES',
    ]);
    assert.deepEqual(splitSqlStatements(' ; ;'), []);
  });

  test('every statement of a batch must be a read; the first refusal names its position', () => {
    assert.deepEqual(checkReadOnlyStatements('SELECT 1; SHOW TABLES; SELECT 2;'), { ok: true });
    assert.deepEqual(checkReadOnlyStatements('SELECT 1; DELETE FROM t'), {
      ok: false,
      reason: 'statement 2: not a SELECT or SHOW statement (starts with DELETE)',
    });
    assert.equal(checkReadOnlyStatements("SELECT 1; SELECT 'x' INTO OUTFILE '/tmp/x'").ok, false);
    assert.equal(checkReadOnlyStatements('SELECT 1 /*! ; DROP TABLE t */').ok, false);
    assert.equal(checkReadOnlyStatements('').ok, false);
  });
});
