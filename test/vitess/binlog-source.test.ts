import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  binlogSourceToText,
  parseBinlogSource,
  parseBinlogSourceBytes,
  type BinlogSource,
} from '../../src/vitess/binlog-source.js';
import { anyBinlogSource, bls, filter, rule, UPSTREAM_SOURCES } from '../helpers/prototext-arbitraries.js';

/** Parse and assert that a failure is a one-line Error (never a TypeError/RangeError from inside). */
function parseError(text: string): Error {
  try {
    parseBinlogSource(text);
  } catch (e) {
    assert.ok(e instanceof Error, 'throws an Error');
    assert.ok(!(e instanceof TypeError) && !(e instanceof RangeError), `not an internal error: ${String(e)}`);
    assert.doesNotMatch(e.message, /[\n\r]/, 'one line');
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseBinlogSource: real upstream source strings', () => {
  // Each expected value spells out the fields the text sets; the rest are proto3 defaults.
  const expected: readonly BinlogSource[] = [
    bls({
      keyspace: 'user',
      shard: '-80',
      filter: filter([rule('sales', 'select pid, count(*) as kount, sum(price) as amount from uorder group by pid')]),
    }),
    bls({
      keyspace: 'ks',
      shard: '0',
      filter: filter([rule('t1', 'exclude'), rule('/.*', '-80')]),
      stopAfterCopy: true,
    }),
    bls({ keyspace: 'ks', shard: '0', keyRange: { start: '', end: '80' } }),
    bls({ keyspace: 'ks', shard: '0', keyRange: { start: '', end: '80' } }),
    bls({
      keyspace: 'sourceks',
      shard: '0',
      filter: filter([rule('t1', 'select * from t1')]),
      onDdl: 'EXEC',
      stopAfterCopy: true,
      sourceTimeZone: 'EDT',
      targetTimeZone: 'UTC',
    }),
    bls({
      keyspace: 'sourceks',
      shard: '0',
      filter: filter([rule('owned_lookup_vdx', "select * from t1 where in_keyrange(col1, 'sourceks.hash', '-80')")]),
      stopAfterCopy: true,
    }),
    bls({
      keyspace: 'commerce',
      shard: '0',
      filter: filter([
        rule('customer', "select * from customer where in_keyrange(customer_id, 'customer.hash', '-80')"),
        rule('corder', "select * from corder where in_keyrange(customer_id, 'customer.hash', '-80')"),
      ]),
    }),
    bls({ keyspace: 'customer', shard: '0', filter: filter([rule('zip', 'exclude'), rule('/.*', '-80')]) }),
    bls({
      keyspace: 'customer',
      shard: '-80',
      filter: filter([
        rule('corder_lookup', 'select sku as sku, keyspace_id() as keyspace_id from corder group by sku, keyspace_id'),
      ]),
      stopAfterCopy: true,
    }),
    bls({
      keyspace: 'commerce',
      shard: '0',
      filter: filter([
        rule('corder', 'select `order_id` as `order_id`, `customer_id` as `customer_id` from `corder`', {
          sourceUniqueKeyColumns: 'order_id',
          targetUniqueKeyColumns: 'order_id',
          sourceUniqueKeyTargetColumns: 'order_id',
        }),
      ]),
    }),
    bls({ keyspace: 'lookup', shard: '0', filter: filter([rule('uproduct', 'select * from product')]) }),
  ];
  assert.equal(expected.length, UPSTREAM_SOURCES.length);
  UPSTREAM_SOURCES.forEach((src, i) => {
    it(src.from, () => {
      assert.deepStrictEqual(parseBinlogSource(src.text), expected[i]);
    });
  });

  it('the old and the new spelling of the same source are equal', () => {
    const old = parseBinlogSource('keyspace:"ks" shard:"0" filter:<rules:<match:"/.*" filter:"-80" > > ');
    const neu = parseBinlogSource('keyspace:"ks" shard:"0" filter:{rules:{match:"/.*" filter:"-80"}}');
    assert.deepStrictEqual(old, neu);
  });
});

describe('parseBinlogSource: every field of binlogdata.BinlogSource', () => {
  it('reads all twelve fields', () => {
    const text =
      'keyspace:"ks" shard:"-80" tablet_type:REPLICA key_range:{start:"\\x40" end:"\\x80"} tables:"t1" tables:"t2" filter:{rules:{match:"t1"} field_event_mode:BEST_EFFORT workflow_type:4 workflow_name:"wf"} on_ddl:EXEC_IGNORE external_mysql:"ext" stop_after_copy:true external_cluster:"mounted" source_time_zone:"US/Pacific" target_time_zone:"UTC"';
    assert.deepStrictEqual(
      parseBinlogSource(text),
      bls({
        keyspace: 'ks',
        shard: '-80',
        tabletType: 'REPLICA',
        keyRange: { start: '40', end: '80' },
        tables: ['t1', 't2'],
        filter: filter([rule('t1')], { fieldEventMode: 'BEST_EFFORT', workflowType: '4', workflowName: 'wf' }),
        onDdl: 'EXEC_IGNORE',
        externalMysql: 'ext',
        stopAfterCopy: true,
        externalCluster: 'mounted',
        sourceTimeZone: 'US/Pacific',
        targetTimeZone: 'UTC',
      }),
    );
  });

  it('reads all nine fields of binlogdata.Rule, maps included', () => {
    const text =
      'filter:{rules:{match:"t" filter:"select * from t" convert_enum_to_text:{key:"e1" value:"x"} convert_enum_to_text:{key:"e2" value:""} convert_charset:{key:"c" value:{from_charset:"latin1" to_charset:"utf8mb4"}} convert_charset:{key:"d"} source_unique_key_columns:"id" target_unique_key_columns:"id2" source_unique_key_target_columns:"id3" convert_int_to_enum:{key:"i" value:true} convert_int_to_enum:{key:"j"} force_unique_key:"PRIMARY"}}';
    assert.deepStrictEqual(
      parseBinlogSource(text).filter,
      filter([
        rule('t', 'select * from t', {
          convertEnumToText: { e1: 'x', e2: '' },
          convertCharset: { c: { fromCharset: 'latin1', toCharset: 'utf8mb4' }, d: { fromCharset: '', toCharset: '' } },
          sourceUniqueKeyColumns: 'id',
          targetUniqueKeyColumns: 'id2',
          sourceUniqueKeyTargetColumns: 'id3',
          convertIntToEnum: { i: true, j: false },
          forceUniqueKey: 'PRIMARY',
        }),
      ]),
    );
  });

  it('takes proto3 defaults for an empty source', () => {
    assert.deepStrictEqual(parseBinlogSource(''), bls());
    assert.deepStrictEqual(parseBinlogSource('  # only a comment\n'), bls());
  });

  it('keeps present-but-empty messages apart from absent ones', () => {
    assert.deepStrictEqual(parseBinlogSource('key_range:{}').keyRange, { start: '', end: '' });
    assert.deepStrictEqual(parseBinlogSource('filter:{}').filter, filter([]));
    assert.equal(parseBinlogSource('keyspace:"ks"').filter, null);
    assert.equal(parseBinlogSource('keyspace:"ks"').keyRange, null);
  });

  const tabletTypes: readonly [string, string][] = [
    ['UNKNOWN', 'UNKNOWN'],
    ['PRIMARY', 'PRIMARY'],
    ['MASTER', 'PRIMARY'],
    ['REPLICA', 'REPLICA'],
    ['RDONLY', 'RDONLY'],
    ['BATCH', 'RDONLY'],
    ['SPARE', 'SPARE'],
    ['EXPERIMENTAL', 'EXPERIMENTAL'],
    ['BACKUP', 'BACKUP'],
    ['RESTORE', 'RESTORE'],
    ['DRAINED', 'DRAINED'],
    ['1', 'PRIMARY'],
    ['3', 'RDONLY'],
    ['0x2', 'REPLICA'],
    ['42', '42'],
    ['-1', '-1'],
  ];
  for (const [written, read] of tabletTypes) {
    it(`tablet_type:${written} reads as ${read} (topodata.TabletType, aliases and numbers)`, () => {
      assert.equal(parseBinlogSource(`tablet_type:${written}`).tabletType, read);
    });
  }

  const onDdl: readonly [string, string][] = [
    ['IGNORE', 'IGNORE'],
    ['STOP', 'STOP'],
    ['EXEC', 'EXEC'],
    ['EXEC_IGNORE', 'EXEC_IGNORE'],
    ['0', 'IGNORE'],
    ['1', 'STOP'],
    ['2', 'EXEC'],
    ['3', 'EXEC_IGNORE'],
    ['03', 'EXEC_IGNORE'],
  ];
  for (const [written, read] of onDdl) {
    it(`on_ddl:${written} reads as ${read}`, () => {
      assert.equal(parseBinlogSource(`on_ddl:${written}`).onDdl, read);
    });
  }

  const bools: readonly [string, boolean][] = [
    ['true', true],
    ['True', true],
    ['t', true],
    ['1', true],
    ['0x1', true],
    ['01', true],
    ['false', false],
    ['False', false],
    ['f', false],
    ['0', false],
    ['00', false],
  ];
  for (const [written, read] of bools) {
    it(`stop_after_copy:${written} reads as ${read} (protobuf-go Token.Bool)`, () => {
      assert.equal(parseBinlogSource(`stop_after_copy:${written}`).stopAfterCopy, read);
    });
  }

  it('reads workflow_type as a 64-bit decimal string', () => {
    assert.equal(
      parseBinlogSource('filter:{workflow_type:9223372036854775807}').filter?.workflowType,
      '9223372036854775807',
    );
    assert.equal(
      parseBinlogSource('filter:{workflow_type:-9223372036854775808}').filter?.workflowType,
      '-9223372036854775808',
    );
    assert.equal(parseBinlogSource('filter:{workflow_type:0x10}').filter?.workflowType, '16');
    assert.equal(parseBinlogSource('filter:{workflow_type:010}').filter?.workflowType, '8');
    assert.equal(parseBinlogSource('filter:{workflow_type:- 5}').filter?.workflowType, '-5');
  });
});

describe('parseBinlogSource: text format grammar (protobuf-go internal/encoding/text)', () => {
  const same: readonly [string, string][] = [
    ['angle brackets', 'filter:<rules:<match:"t">>'],
    ['colon before a message', 'filter:{rules:{match:"t"}}'],
    ['no colon before a message', 'filter{rules{match:"t"}}'],
    ['mixed delimiters at different levels', 'filter:<rules{match:"t"}>'],
    ['commas between fields', 'filter:{rules:{match:"t",},}'],
    ['semicolons between fields', 'filter:{rules:{match:"t";};};'],
    ['whitespace everywhere', ' \n\tfilter \r\n : \t{ rules : { match : "t" } } \n'],
    ['comments', '# leading\nfilter: # after colon\n{ rules: { match: "t" # trailing\n } }# at end'],
    ['list form for a repeated message', 'filter:{rules:[{match:"t"}]}'],
    ['list of messages in angle brackets', 'filter:{rules:[<match:"t">]}'],
    ['single-quoted string', "filter:{rules:{match:'t'}}"],
    ['adjacent strings concatenate', 'filter:{rules:{match:"" "t" \'\'}}'],
    ['adjacent strings across a comment', 'filter:{rules:{match:"" # c\n "t"}}'],
    ['adjacent strings without space', 'filter:{rules:{match:""\'t\'""}}'],
  ];
  const want = parseBinlogSource('filter:{rules:{match:"t"}}');
  for (const [name, text] of same) {
    it(name, () => assert.deepStrictEqual(parseBinlogSource(text), want));
  }

  it('list form for a repeated string, and an empty list', () => {
    assert.deepStrictEqual(parseBinlogSource('tables:["a", "b"] tables:"c" tables:[]').tables, ['a', 'b', 'c']);
  });

  it('list form for map entries', () => {
    assert.deepStrictEqual(
      parseBinlogSource('filter{rules{convert_enum_to_text:[{key:"a" value:"1"},{key:"b" value:"2"}]}}').filter
        ?.rules[0]?.convertEnumToText,
      { a: '1', b: '2' },
    );
  });

  it('a repeated map key keeps the last value (Go map Set)', () => {
    assert.deepStrictEqual(
      parseBinlogSource(
        'filter{rules{convert_enum_to_text:{key:"a" value:"1"} convert_enum_to_text:{key:"a" value:"2"}}}',
      ).filter?.rules[0]?.convertEnumToText,
      { a: '2' },
    );
  });

  it('map key "__proto__" stays an ordinary key', () => {
    const r = parseBinlogSource('filter{rules{convert_enum_to_text:{key:"__proto__" value:"x"}}}').filter?.rules[0];
    assert.equal(Object.getPrototypeOf(r?.convertEnumToText), Object.prototype);
    assert.deepStrictEqual(Object.keys(r?.convertEnumToText ?? {}), ['__proto__']);
  });

  // Escapes: protobuf-go decode_string.go parseString.
  const escapes: readonly [string, number[]][] = [
    ['\\"', [0x22]],
    ["\\'", [0x27]],
    ['\\\\', [0x5c]],
    ['\\?', [0x3f]],
    ['\\a', [0x07]],
    ['\\b', [0x08]],
    ['\\f', [0x0c]],
    ['\\n', [0x0a]],
    ['\\r', [0x0d]],
    ['\\t', [0x09]],
    ['\\v', [0x0b]],
    ['\\0', [0]],
    ['\\7', [7]],
    ['\\12', [0o12]],
    ['\\200', [0x80]],
    ['\\377', [0xff]],
    ['\\1234', [0o123, 0x34]],
    ['\\x0', [0]],
    ['\\x80', [0x80]],
    ['\\xfF', [0xff]],
    ['\\x123', [0x12, 0x33]],
    ['\\u00e9', [0xc3, 0xa9]],
    ['\\u20AC', [0xe2, 0x82, 0xac]],
    ['\\U0001F600', [0xf0, 0x9f, 0x98, 0x80]],
    ['\\ud83d\\ude00', [0xf0, 0x9f, 0x98, 0x80]],
    ['é', [0xc3, 0xa9]],
    ['😀', [0xf0, 0x9f, 0x98, 0x80]],
    ['\t\r', [0x09, 0x0d]],
  ];
  for (const [escaped, bytes] of escapes) {
    it(`string escape ${escaped} is bytes ${bytes.map((b) => b.toString(16)).join(' ')}`, () => {
      const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
      assert.equal(parseBinlogSource(`key_range:{start:"${escaped}"}`).keyRange?.start, hex);
    });
  }

  it('an escape and a multi-byte character in one literal are both decoded', () => {
    // Two source characters become one byte (\\n) and one becomes two (é): lengths match, content does not.
    assert.equal(parseBinlogSource('keyspace:"\\né"').keyspace, '\né');
  });

  it('string fields decode UTF-8 bytes, and escaped UTF-8 bytes too', () => {
    assert.equal(parseBinlogSource('keyspace:"\\303\\251t\\xc3\\xa9"').keyspace, 'été');
    assert.equal(parseBinlogSource('keyspace:"\\xef\\xbb\\xbfks"').keyspace, '\ufeffks');
  });

  it('skips unknown fields at any level, with nested messages, lists and extensions, and names them', () => {
    const text =
      'keyspace:"ks" future_scalar:7 future_msg:{a:1 b:<c:"x" d:[1,2]> e:[{f:1},{g:2}]} filter:{rules:{match:"t" foo:"bar" foo:1 nested{deep{deeper:true}}} new_thing:-inf} [some.extension]:{x:1} [type.googleapis.com/pkg.Msg]{y:2} key_range:{start:"\\x40" zzz:1}';
    const got = parseBinlogSource(text);
    assert.deepStrictEqual(
      got,
      bls({
        keyspace: 'ks',
        keyRange: { start: '40', end: '' },
        filter: filter([rule('t')]),
        unknownFields: got.unknownFields,
      }),
    );
    assert.deepStrictEqual(got.unknownFields, [
      'future_scalar',
      'future_msg',
      'filter.rules.foo',
      'filter.rules.nested',
      'filter.new_thing',
      '[some.extension]',
      '[type.googleapis.com/pkg.Msg]',
      'key_range.zzz',
    ]);
  });

  it('does not take JSON (camelCase) names: they are unknown, as in Go', () => {
    const got = parseBinlogSource('keyspace:"ks" stopAfterCopy:true');
    assert.equal(got.stopAfterCopy, false);
    assert.deepStrictEqual(got.unknownFields, ['stopAfterCopy']);
  });

  it('reads bytes from the mediumblob column', () => {
    const bytes = new TextEncoder().encode('keyspace:"ks" shard:"-80"');
    assert.deepStrictEqual(parseBinlogSourceBytes(bytes), bls({ keyspace: 'ks', shard: '-80' }));
    assert.throws(() => parseBinlogSourceBytes(new Uint8Array([0x6b, 0x3a, 0x22, 0xff, 0x22])), /not valid UTF-8/);
  });
});

describe('parseBinlogSource: errors are one-line Errors naming what and where', () => {
  const cases: readonly [string, string, RegExp][] = [
    [
      'close brace at top level',
      'keyspace:"ks" }',
      /^invalid BinlogSource at character 15: expected field name, found "}"$/,
    ],
    ['unclosed message', 'filter:{rules:{match:"t"}', /at character 26: expected "}", found end of input/],
    ['mismatched close', 'filter:{rules:<match:"t"}}', /at character 25: mismatched close character "}", expected ">"/],
    ['unterminated string', 'keyspace:"ks', /at character 10: unterminated string literal/],
    ['newline in a string', 'keyspace:"k\ns"', /at character 12: invalid character "\\n" in string literal/],
    ['NUL in a string', 'keyspace:"k\0s"', /invalid character "\\u0000" in string literal/],
    ['bad escape', 'keyspace:"\\z"', /at character 11: invalid escape "\\\\z"/],
    ['bad hex escape', 'keyspace:"\\xg"', /invalid hex escape/],
    ['octal escape above 0377', 'keyspace:"\\400"', /invalid octal escape "\\\\400"/],
    ['short \\u escape', 'keyspace:"\\u12"', /unterminated string literal|invalid Unicode escape/],
    ['bad \\u escape', 'keyspace:"\\u12zz"', /invalid Unicode escape/],
    ['\\U above U+10FFFF', 'keyspace:"\\U00110000"', /invalid Unicode escape/],
    ['unpaired surrogate escape', 'keyspace:"\\ud83d"', /unpaired surrogate|unterminated/],
    ['unpaired surrogate escape before text', 'keyspace:"\\ud83dxxxxxx"', /unpaired surrogate/],
    ['low surrogate first', 'keyspace:"\\ude00\\ud83d"', /unpaired surrogate/],
    ['non-UTF-8 bytes in a string field', 'keyspace:"\\xff"', /field keyspace: string is not valid UTF-8/],
    ['missing colon before a scalar', 'keyspace "ks"', /at character 1: field keyspace: missing ":"/],
    ['missing value', 'keyspace:', /expected a value for field "keyspace", found end of input/],
    ['number as field name', '1:"ks"', /field given by number/],
    ['negative field number', '-1:"ks"', /invalid field number/],
    ['identifier glued to punctuation', 'keyspace.x:"ks"', /expected field name, found "keyspace.x"/],
    ['unknown enum name', 'on_ddl:EXPLODE', /field on_ddl: unknown binlogdata.OnDDLAction value "EXPLODE"/],
    ['unknown enum number for a closed union', 'on_ddl:9', /on_ddl has unknown binlogdata.OnDDLAction number 9/],
    ['enum given as a string', 'on_ddl:"EXEC"', /field on_ddl: expected a binlogdata.OnDDLAction name or number/],
    ['enum given as a float', 'tablet_type:1.0', /expected a topodata.TabletType name or number/],
    ['enum number beyond int32', 'tablet_type:2147483648', /expected a topodata.TabletType name or number/],
    ['string given as a number', 'keyspace:5', /field keyspace: expected a string value, found "5"/],
    ['string given as a message', 'keyspace:{}', /field keyspace: expected a string value, found a message/],
    ['message given as a scalar', 'filter:"x"', /field filter: expected a message/],
    ['bool given as 2', 'stop_after_copy:2', /field stop_after_copy: expected a bool value/],
    ['bool given as TRUE', 'stop_after_copy:TRUE', /expected a bool value, found "TRUE"/],
    ['int64 overflow', 'filter:{workflow_type:9223372036854775808}', /out of range for int64/],
    ['int64 as a float', 'filter:{workflow_type:1e3}', /expected a int64 value/],
    [
      'singular field repeated',
      'keyspace:"a" keyspace:"b"',
      /at character 14: non-repeated field keyspace is repeated/,
    ],
    ['singular message repeated', 'filter:{} filter:{}', /non-repeated field filter is repeated/],
    ['list for a singular field', 'keyspace:["a"]', /field keyspace is not repeated and cannot take a list/],
    ['two separators', 'keyspace:"a",, shard:"b"', /expected field name, found ","/],
    ['leading separator', ',keyspace:"a"', /at character 1: expected field name, found ","/],
    ['separator right after open', 'filter:{,}', /expected field name, found ","/],
    ['trailing comma in a list', 'tables:["a",]', /expected a value in list, found "]"/],
    ['semicolon in a list', 'tables:["a";"b"]', /expected "," or "]" in list, found ";"/],
    ['nested list', 'tables:[["a"]]', /expected a value in list, found "\["/],
    ['unclosed list', 'tables:["a"', /expected "," or "]" in list, found end of input/],
    ['bad extension name', '[a..b]:1', /invalid extension or type name/],
    ['extension name ending in a dot', '[a.]:1', /invalid extension or type name/],
    ['unterminated extension name', '[a.b', /unterminated extension or type name/],
    [
      'map entry key repeated',
      'filter{rules{convert_enum_to_text{key:"a" key:"b"}}}',
      /map entry field filter.rules.convert_enum_to_text.key is repeated/,
    ],
    ['map entry as a scalar', 'filter{rules{convert_enum_to_text:"a"}}', /expected a map entry/],
    [
      'map key of the wrong type',
      'filter{rules{convert_int_to_enum{key:1 value:true}}}',
      /convert_int_to_enum.key: expected a string value/,
    ],
    [
      'number glued to letters',
      'filter{workflow_type:12ab}',
      /expected a value for field "filter.workflow_type", found "12ab"/,
    ],
    ['hex without digits', 'filter{workflow_type:0x}', /expected a value/],
    ['nesting deeper than 100', `${'x{'.repeat(101)}${'}'.repeat(101)}`, /messages nested deeper than 100 levels/],
    ['excerpt is short and escaped', `keyspace:"x" ${'z'.repeat(200)}.`, /found "z{24}…"$/],
  ];
  for (const [name, text, re] of cases) {
    it(name, () => {
      const e = parseError(text);
      assert.match(e.message, re);
      assert.match(e.message, /^invalid BinlogSource/);
    });
  }

  it('nesting up to 100 levels is accepted', () => {
    const text = `keyspace:"ks" ${'x{'.repeat(99)}${'}'.repeat(99)}`;
    assert.deepStrictEqual(parseBinlogSource(text).unknownFields, ['x']);
  });

  it('a non-string argument is an Error, not a TypeError', () => {
    const e = (() => {
      try {
        parseBinlogSource(42 as unknown as string);
      } catch (err) {
        return err;
      }
      return null;
    })();
    assert.ok(e instanceof Error && !(e instanceof TypeError));
  });
});

describe('binlogSourceToText: Go prototext single-line form', () => {
  it('writes fields in number order, defaults omitted, like upstream tests expect', () => {
    assert.equal(
      binlogSourceToText(
        bls({
          keyspace: 'sourceks',
          shard: '0',
          filter: filter([rule('t1', 'select * from t1')]),
          onDdl: 'EXEC',
          stopAfterCopy: true,
          sourceTimeZone: 'EDT',
          targetTimeZone: 'UTC',
        }),
      ),
      // vitessio/vitess:go/vt/vttablet/tabletmanager/rpc_vreplication_test.go (expected insert)
      'keyspace:"sourceks" shard:"0" filter:{rules:{match:"t1" filter:"select * from t1"}} on_ddl:EXEC ' +
        'stop_after_copy:true source_time_zone:"EDT" target_time_zone:"UTC"',
    );
    assert.equal(
      binlogSourceToText(bls({ keyspace: 'ks', shard: '0', keyRange: { start: '', end: '80' } })),
      'keyspace:"ks" shard:"0" key_range:{end:"\\x80"}',
    );
  });

  it('writes every field', () => {
    const all = bls({
      keyspace: 'ks',
      shard: '-80',
      tabletType: 'RDONLY',
      keyRange: { start: '00', end: '' },
      tables: ['a', ''],
      filter: filter(
        [
          rule('t', 'f', {
            convertEnumToText: { b: '2', a: '1' },
            convertCharset: { c: { fromCharset: 'x', toCharset: '' } },
            sourceUniqueKeyColumns: 's',
            targetUniqueKeyColumns: 't',
            sourceUniqueKeyTargetColumns: 'u',
            convertIntToEnum: { z: false },
            forceUniqueKey: 'k',
          }),
        ],
        { fieldEventMode: 'BEST_EFFORT', workflowType: '-3', workflowName: 'w' },
      ),
      onDdl: 'STOP',
      externalMysql: 'm',
      stopAfterCopy: true,
      externalCluster: 'c',
      sourceTimeZone: 'S',
      targetTimeZone: 'T',
    });
    assert.equal(
      binlogSourceToText(all),
      'keyspace:"ks" shard:"-80" tablet_type:RDONLY key_range:{start:"\\x00"} tables:"a" tables:"" filter:{rules:{match:"t" filter:"f" convert_enum_to_text:{key:"a" value:"1"} convert_enum_to_text:{key:"b" value:"2"} convert_charset:{key:"c" value:{from_charset:"x"}} source_unique_key_columns:"s" target_unique_key_columns:"t" source_unique_key_target_columns:"u" convert_int_to_enum:{key:"z" value:false} force_unique_key:"k"} field_event_mode:BEST_EFFORT workflow_type:-3 workflow_name:"w"} on_ddl:STOP external_mysql:"m" stop_after_copy:true external_cluster:"c" source_time_zone:"S" target_time_zone:"T"',
    );
    assert.deepStrictEqual(parseBinlogSource(binlogSourceToText(all)), all);
  });

  it('escapes like protobuf-go appendString', () => {
    assert.equal(
      binlogSourceToText(bls({ keyspace: 'a"b\\c\nd\re\tf\0g\x01h\x1fi\x7fj\'ké😀' })),
      'keyspace:"a\\"b\\\\c\\nd\\re\\tf\\x00g\\x01h\\x1fi\x7fj\'ké😀"',
    );
    assert.equal(
      binlogSourceToText(bls({ keyRange: { start: '80ff00c3a9', end: 'c3' } })),
      'key_range:{start:"\\x80\\xff\\x00é" end:"\\xc3"}',
    );
  });

  it('writes empty present messages and unnamed enum numbers', () => {
    assert.equal(
      binlogSourceToText(bls({ keyRange: { start: '', end: '' }, filter: filter([]) })),
      'key_range:{} filter:{}',
    );
    assert.equal(binlogSourceToText(bls({ tabletType: '42' })), 'tablet_type:42');
  });

  it('refuses values it cannot represent, with one-line Errors', () => {
    assert.throws(() => binlogSourceToText(bls({ keyspace: '\ud800' })), /unpaired surrogate/);
    assert.throws(
      () => binlogSourceToText(bls({ keyRange: { start: '8', end: '' } })),
      /key_range.start "8" is not lower-case hex/,
    );
    assert.throws(() => binlogSourceToText(bls({ keyRange: { start: 'AB', end: '' } })), /not lower-case hex/);
    assert.throws(
      () => binlogSourceToText(bls({ tabletType: 'LEADER' })),
      /tablet_type "LEADER" is not a topodata.TabletType name/,
    );
    assert.throws(
      () => binlogSourceToText(bls({ filter: filter([], { workflowType: '1.5' }) })),
      /not a decimal integer/,
    );
    assert.throws(
      () => binlogSourceToText(bls({ filter: filter([], { workflowType: '9223372036854775808' }) })),
      /out of range for int64/,
    );
  });
});

describe('properties (fast-check)', () => {
  it('parseBinlogSource(binlogSourceToText(x)) equals x for any BinlogSource', () => {
    fc.assert(
      fc.property(anyBinlogSource, (x) => {
        assert.deepStrictEqual(parseBinlogSource(binlogSourceToText(x)), x);
      }),
      { numRuns: 500 },
    );
  });

  it('the old <…> spelling with random spacing parses to the same value', () => {
    fc.assert(
      fc.property(
        anyBinlogSource,
        fc.infiniteStream(fc.constantFrom('', ' ', '  ', '\n', '\t', ' # c\n')),
        (x, spaces) => {
          const text = binlogSourceToText(x);
          // Re-spell outside string literals: {…} → <…>, add spacing after every structural token.
          let out = '';
          let inString = false;
          for (let i = 0; i < text.length; i++) {
            const c = text[i]!;
            if (inString) {
              out += c;
              if (c === '\\') out += text[++i] ?? '';
              else if (c === '"') inString = false;
              continue;
            }
            if (c === '"') {
              inString = true;
              out += c;
            } else if (c === '{') out += `<${spaces.next().value}`;
            else if (c === '}') out += `${spaces.next().value} >`;
            else if (c === ':') out += `${spaces.next().value}:${spaces.next().value}`;
            else if (c === ' ') out += ` ${spaces.next().value}`;
            else out += c;
          }
          assert.deepStrictEqual(parseBinlogSource(out), x);
        },
      ),
      { numRuns: 200 },
    );
  });
});
