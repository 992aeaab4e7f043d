import { get_dmmf } from '@prisma/prisma-schema-wasm';
import type pg from 'pg';

// schema.prisma and the SQL migrations describe the same tables twice. Prisma never migrates this
// database (lib/db/migrator.ts applies the SQL), so nothing but a test notices when they part ways:
// this module puts both in one shape — tables, columns, Postgres types, nullability, enum labels —
// and lists every difference. Test-only: it loads Prisma's schema parser (a dev dependency).

export type TColumnShape = { column: string; type: string; nullable: boolean };
export type TTableShape = { table: string; columns: TColumnShape[] };
export type TEnumShape = { name: string; values: string[] };
export type TSchemaShape = { tables: TTableShape[]; enums: TEnumShape[] };

/** The part of Prisma's DMMF datamodel this comparison reads. */
export type TDatamodel = {
  models: {
    name: string;
    dbName: string | null;
    fields: {
      name: string;
      dbName?: string | null;
      kind: string;
      type: string;
      isList: boolean;
      isRequired: boolean;
      nativeType?: [string, string[]] | null;
    }[];
  }[];
  enums: { name: string; dbName?: string | null; values: { name: string; dbName?: string | null }[] }[];
};

/** Parses schema.prisma with the Prisma engine's own parser (the client generator's input, not a guess). */
export function readDatamodel(prismaSchema: string): TDatamodel {
  const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', prismaSchema]] }))) as {
    datamodel: TDatamodel;
  };
  return dmmf.datamodel;
}

// What Postgres' format_type() prints for a Prisma scalar without a @db attribute (Prisma's defaults).
const DEFAULT_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

// format_type() for a @db.X attribute; `args` are the attribute's arguments (length, precision…).
const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Text: () => 'text',
  Uuid: () => 'uuid',
  Citext: () => 'citext',
  Inet: () => 'inet',
  VarChar: (args) => (args.length ? `character varying(${args[0]})` : 'character varying'),
  Char: (args) => `character(${args[0] ?? 1})`,
  SmallInt: () => 'smallint',
  Integer: () => 'integer',
  BigInt: () => 'bigint',
  Real: () => 'real',
  DoublePrecision: () => 'double precision',
  Decimal: (args) => (args.length ? `numeric(${args.join(',')})` : 'numeric'),
  Money: () => 'money',
  Boolean: () => 'boolean',
  Timestamp: (args) => withPrecision('timestamp', args, 'without time zone'),
  Timestamptz: (args) => withPrecision('timestamp', args, 'with time zone'),
  Time: (args) => withPrecision('time', args, 'without time zone'),
  Timetz: (args) => withPrecision('time', args, 'with time zone'),
  Date: () => 'date',
  Json: () => 'json',
  JsonB: () => 'jsonb',
  ByteA: () => 'bytea',
  Xml: () => 'xml',
};

function withPrecision(base: string, args: string[], zone: string): string {
  return args.length ? `${base}(${args[0]}) ${zone}` : `${base} ${zone}`;
}

/** The tables, columns and enums schema.prisma declares, in the catalog's vocabulary. */
export function modelShape(datamodel: TDatamodel): TSchemaShape {
  const enumNames = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const tables = datamodel.models.map((model) => ({
    table: model.dbName ?? model.name,
    columns: model.fields
      .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
      .map((field) => {
        let type: string;
        if (field.kind === 'enum') type = enumNames.get(field.type) ?? field.type;
        else if (field.nativeType) {
          const [name, args] = field.nativeType;
          type = NATIVE_TYPES[name]?.(args) ?? `unmapped @db.${name}`;
        } else type = DEFAULT_TYPES[field.type] ?? `unmapped ${field.type}`;
        return {
          column: field.dbName ?? field.name,
          type: field.isList ? `${type}[]` : type,
          nullable: !field.isRequired,
        };
      }),
  }));
  const enums = datamodel.enums.map((e) => ({
    name: e.dbName ?? e.name,
    values: e.values.map((value) => value.dbName ?? value.name),
  }));
  return { tables, enums };
}

/** The tables (with their columns) and enum types of one schema of the connected database. */
export async function catalogShape(client: pg.Client, schema = 'public'): Promise<TSchemaShape> {
  const { rows: columns } = await client.query<{ table: string; column: string; type: string; nullable: boolean }>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
            not a.attnotnull as nullable
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname, a.attnum`,
    [schema],
  );
  const { rows: enums } = await client.query<{ name: string; values: string[] }>(
    `select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as values
       from pg_type t
       join pg_namespace n on n.oid = t.typnamespace
       join pg_enum e on e.enumtypid = t.oid
      where n.nspname = $1
      group by t.typname
      order by t.typname`,
    [schema],
  );
  const tables = new Map<string, TColumnShape[]>();
  for (const { table, ...column } of columns) tables.set(table, [...(tables.get(table) ?? []), column]);
  return { tables: [...tables].map(([table, cols]) => ({ table, columns: cols })), enums };
}

/**
 * Every difference between the models and the database, one line each (`-` only in schema.prisma,
 * `+` only in the database, `~` in both but different); empty when they agree. Tables named in
 * `unmodelled` may exist in the database without a model.
 */
export function schemaDrift(models: TSchemaShape, database: TSchemaShape, unmodelled: readonly string[]): string[] {
  const drift: string[] = [];
  const dbTables = new Map(database.tables.map((t) => [t.table, t]));
  const modelTables = new Map(models.tables.map((t) => [t.table, t]));

  for (const model of models.tables) {
    const table = dbTables.get(model.table);
    if (!table) {
      drift.push(`- table ${model.table}: in schema.prisma, not in the database`);
      continue;
    }
    const dbColumns = new Map(table.columns.map((c) => [c.column, c]));
    const modelColumns = new Set(model.columns.map((c) => c.column));
    for (const column of model.columns) {
      const actual = dbColumns.get(column.column);
      const where = `${model.table}.${column.column}`;
      if (!actual) drift.push(`- column ${where} ${describe(column)}: in schema.prisma, not in the database`);
      else if (actual.type !== column.type || actual.nullable !== column.nullable)
        drift.push(`~ column ${where}: schema.prisma says ${describe(column)}, the database has ${describe(actual)}`);
    }
    for (const column of table.columns)
      if (!modelColumns.has(column.column))
        drift.push(
          `+ column ${model.table}.${column.column} ${describe(column)}: in the database, not in schema.prisma`,
        );
  }
  for (const table of database.tables)
    if (!modelTables.has(table.table) && !unmodelled.includes(table.table))
      drift.push(`+ table ${table.table}: in the database, no model and not on the allow-list`);
  for (const name of unmodelled)
    if (modelTables.has(name)) drift.push(`~ table ${name}: on the allow-list but has a model (drop it from the list)`);

  const dbEnums = new Map(database.enums.map((e) => [e.name, e.values]));
  const modelEnums = new Set(models.enums.map((e) => e.name));
  for (const { name, values } of models.enums) {
    const actual = dbEnums.get(name);
    if (!actual) drift.push(`- enum ${name}: in schema.prisma, not in the database`);
    // Compared as sets: Prisma ignores the order of labels, so a label added `before` another is no drift.
    else if ([...actual].sort().join(',') !== [...values].sort().join(','))
      drift.push(`~ enum ${name}: schema.prisma says (${values.join(', ')}), the database has (${actual.join(', ')})`);
  }
  for (const { name } of database.enums)
    if (!modelEnums.has(name)) drift.push(`+ enum ${name}: in the database, not in schema.prisma`);
  return drift;
}

function describe(column: TColumnShape): string {
  return `${column.type}${column.nullable ? ' null' : ' not null'}`;
}
