import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstDeniedPrivilege, sqlLike, vreplicationPermitted } from '../../src/model/vreplication-permissions.js';

const none = { select: 'N', insert: 'N', update: 'N', delete: 'N' };
const all = { select: 'Y', insert: 'Y', update: 'Y', delete: 'Y' };

test('LIKE with the backslash escape, as the upstream query compares `<sidecar> LIKE d.db`', () => {
  assert.equal(sqlLike('_vt', '\\_vt'), true);
  assert.equal(sqlLike('_vt', '_vt'), true);
  assert.equal(sqlLike('xvt', '\\_vt'), false);
  assert.equal(sqlLike('xvt', '_vt'), true);
  assert.equal(sqlLike('_vt', '%'), true);
  assert.equal(sqlLike('_vt', '\\_v%'), true);
  assert.equal(sqlLike('_vt', 'vt_commerce'), false);
  assert.equal(sqlLike('_VT', '\\_vt'), false);
  assert.equal(sqlLike('a.b', 'a_b'), true);
  assert.equal(sqlLike('a+b', 'a+b'), true);
});

test('the filtered user needs a mysql.user row, then global, db or vreplication table privileges', () => {
  const g = (over: Partial<Parameters<typeof vreplicationPermitted>[0]>) => ({
    user: 'vt_filtered',
    global: [none],
    db: [],
    tables: [],
    ...over,
  });
  assert.equal(vreplicationPermitted(g({ global: [] }), '_vt'), false, 'no user row');
  assert.equal(vreplicationPermitted(g({ global: [], db: [{ db: '%', ...all }] }), '_vt'), false);
  assert.equal(vreplicationPermitted(g({}), '_vt'), false, 'no privileges');
  assert.equal(vreplicationPermitted(g({ global: [none, { ...all, select: 'y' }] }), '_vt'), true, 'any host');
  assert.equal(vreplicationPermitted(g({ global: [{ ...all, delete: 'N' }] }), '_vt'), false);
  assert.equal(vreplicationPermitted(g({ db: [{ db: '\\_vt', ...all }] }), '_vt'), true);
  assert.equal(vreplicationPermitted(g({ db: [{ db: '%', ...all }] }), '_vt'), true);
  assert.equal(vreplicationPermitted(g({ db: [{ db: 'vt\\_%', ...all }] }), '_vt'), false, 'other dbs');
  assert.equal(vreplicationPermitted(g({ db: [{ db: '\\_vt', ...all, update: 'N' }] }), '_vt'), false);
  const t = (privs: string, table = 'vreplication', db = '\\_vt') => g({ tables: [{ db, table, privs }] });
  assert.equal(vreplicationPermitted(t('Select,Insert,Update,Delete'), '_vt'), true);
  assert.equal(vreplicationPermitted(t('Select,Insert,Update,Delete,Drop'), '_vt'), true);
  assert.equal(vreplicationPermitted(t('Select,Insert,Update'), '_vt'), false);
  assert.equal(vreplicationPermitted(t('Select,Insert,Update,Delete', 'copy_state'), '_vt'), false);
  assert.equal(vreplicationPermitted(t('Select,Insert,Update,Delete', 'vreplication', '_vt'), 'x_vt'), false);
});

test('v23+ (rpc_vreplication.go:928-1000 @v0.24.4): each statement on its own, the first denied named', () => {
  const none = { select: 'N', insert: 'N', update: 'N', delete: 'N' };
  const all = { select: 'Y', insert: 'Y', update: 'Y', delete: 'Y' };
  const g = (over: object) => ({ user: 'vt_filtered', global: [none], db: [], tables: [], ...over });
  assert.equal(firstDeniedPrivilege(g({}), '_vt'), 'SELECT');
  assert.equal(firstDeniedPrivilege(g({ global: [all] }), '_vt'), null);
  assert.equal(firstDeniedPrivilege(g({ global: [{ ...none, select: 'y' }] }), '_vt'), 'INSERT');
  // Levels add up, as MySQL grants them (v21–v22's query wants all four on one level).
  const mixed = g({ global: [{ ...none, select: 'Y' }], db: [{ db: '\\_vt', ...all, select: 'N' }] });
  assert.equal(firstDeniedPrivilege(mixed, '_vt'), null);
  assert.equal(vreplicationPermitted(mixed, '_vt'), false);
  const t = (privs: string, table = 'vreplication') => g({ tables: [{ db: '_vt', table, privs }] });
  assert.equal(firstDeniedPrivilege(t('Select,Insert,Delete'), '_vt'), 'UPDATE');
  assert.equal(firstDeniedPrivilege(t('Select,Insert,Update,Delete', 'copy_state'), '_vt'), 'SELECT');
  assert.equal(firstDeniedPrivilege(g({ db: [{ db: 'vt\\_%', ...all }] }), '_vt'), 'SELECT', 'other dbs');
});
