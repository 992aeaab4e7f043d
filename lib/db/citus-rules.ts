import type pg from 'pg';
import {
  COORDINATOR_TABLES,
  CROSS_TENANT_FUNCTIONS,
  REFERENCE_TABLES,
  TENANT_TABLES,
  tableClass,
} from './table-classes';

// The rules a schema must keep for Citus to distribute it by tenant (DESIGN.md, Scaling out), read
// from pg_catalog: one line per violation, so a failing test lists them all. Test-only.

type TClasses = {
  tenant: readonly string[];
  reference: Record<string, unknown>;
  coordinator: Record<string, unknown>;
  functions: Record<string, { via?: string }>;
};

const DEFAULT_CLASSES: TClasses = {
  tenant: TENANT_TABLES,
  reference: REFERENCE_TABLES,
  coordinator: COORDINATOR_TABLES,
  functions: CROSS_TENANT_FUNCTIONS,
};

export async function citusViolations(client: pg.Client, classes: TClasses = DEFAULT_CLASSES): Promise<string[]> {
  const classOf = (table: string) =>
    classes === DEFAULT_CLASSES
      ? tableClass(table)
      : classes.tenant.includes(table)
        ? 'tenant'
        : table in classes.reference
          ? 'reference'
          : table in classes.coordinator
            ? 'coordinator'
            : null;
  const violations: string[] = [];

  const { rows: tables } = await client.query<{ table: string; tenantColumn: string | null }>(`
    select c.relname as table,
           (select format_type(a.atttypid, a.atttypmod) || case when a.attnotnull then ' not null' else ' null' end
              from pg_attribute a
             where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as "tenantColumn"
      from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
     order by c.relname`);
  const present = new Set(tables.map((t) => t.table));
  for (const { table, tenantColumn } of tables) {
    const kind = classOf(table);
    if (!kind) violations.push(`${table}: not classified (lib/db/table-classes.ts: tenant, reference or coordinator)`);
    if (kind === 'tenant' && tenantColumn !== 'uuid not null')
      violations.push(`${table}: tenant table without tenant_id uuid not null (has ${tenantColumn ?? 'no tenant_id'})`);
  }
  for (const table of [...classes.tenant, ...Object.keys(classes.reference), ...Object.keys(classes.coordinator)])
    if (!present.has(table)) violations.push(`${table}: classified but not in the database (drop it from the list)`);

  // Primary keys, unique indexes (constraints and bare indexes, partial ones too) and exclusion constraints.
  const { rows: indexes } = await client.query<{
    table: string;
    name: string;
    kind: 'primary key' | 'unique index' | 'exclusion constraint';
    hasTenant: boolean;
    tenantEquals: boolean;
  }>(`
    select t.relname as table, ic.relname as name,
           case when i.indisprimary then 'primary key'
                when i.indisexclusion then 'exclusion constraint'
                else 'unique index' end as kind,
           a.attnum is not null as "hasTenant",
           exists (select 1 from unnest(con.conkey, con.conexclop) as k(col, op)
                    where k.col = a.attnum and k.op = '=(uuid,uuid)'::regoperator::oid) as "tenantEquals"
      from pg_index i
      join pg_class t on t.oid = i.indrelid
      join pg_class ic on ic.oid = i.indexrelid
      left join pg_attribute a on a.attrelid = t.oid and a.attname = 'tenant_id' and a.attnum = any(i.indkey::int2[])
      left join pg_constraint con on con.conindid = i.indexrelid and con.contype = 'x'
     where t.relnamespace = 'public'::regnamespace and (i.indisunique or i.indisprimary or i.indisexclusion)
     order by t.relname, ic.relname`);
  const withPrimaryKey = new Set(indexes.filter((i) => i.kind === 'primary key').map((i) => i.table));
  for (const table of classes.tenant)
    if (present.has(table) && !withPrimaryKey.has(table))
      violations.push(`${table}: tenant table without a primary key`);
  for (const index of indexes) {
    if (classOf(index.table) !== 'tenant') continue;
    if (!index.hasTenant) violations.push(`${index.table}: ${index.kind} ${index.name} does not include tenant_id`);
    else if (index.kind === 'exclusion constraint' && !index.tenantEquals)
      violations.push(`${index.table}: exclusion constraint ${index.name} does not compare tenant_id with =`);
  }

  // Foreign keys: which classes may refer to which, and tenant_id on both sides between tenant tables.
  const { rows: foreignKeys } = await client.query<{
    table: string;
    name: string;
    target: string;
    tenantPaired: boolean;
  }>(`
    select t.relname as table, con.conname as name, r.relname as target,
           exists (select 1
                     from unnest(con.conkey, con.confkey) as k(col, ref)
                     join pg_attribute ca on ca.attrelid = con.conrelid and ca.attnum = k.col
                     join pg_attribute ra on ra.attrelid = con.confrelid and ra.attnum = k.ref
                    where ca.attname = 'tenant_id' and ra.attname = 'tenant_id') as "tenantPaired"
      from pg_constraint con
      join pg_class t on t.oid = con.conrelid
      join pg_class r on r.oid = con.confrelid
     where con.contype = 'f' and t.relnamespace = 'public'::regnamespace
     order by t.relname, con.conname`);
  for (const fk of foreignKeys) {
    const from = classOf(fk.table);
    const to = classOf(fk.target);
    if (!from || !to) continue;
    const where = `${fk.table}: foreign key ${fk.name} → ${fk.target}`;
    if (from === 'tenant' && to === 'tenant' && !fk.tenantPaired)
      violations.push(`${where} does not pair tenant_id with tenant_id`);
    if (from === 'tenant' && to === 'coordinator')
      violations.push(`${where}: a tenant table refers to a coordinator table`);
    if (from === 'reference' && to !== 'reference')
      violations.push(`${where}: a reference table refers to a ${to} table`);
    if (from === 'coordinator' && to === 'tenant')
      violations.push(`${where}: a coordinator table refers to a tenant table`);
  }

  // SQL functions that read tenant tables take the tenant's id, or are on the allow-list.
  const { rows: functions } = await client.query<{ name: string; source: string; takesTenant: boolean }>(`
    select p.proname as name, p.prosrc as source,
           coalesce('p_tenant_id' = any(p.proargnames), false) as "takesTenant"
      from pg_proc p
      join pg_language l on l.oid = p.prolang
     where p.pronamespace = 'public'::regnamespace
       and l.lanname in ('sql', 'plpgsql')
       and p.prorettype <> 'trigger'::regtype
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
     order by p.proname`);
  const mentions = (source: string, name: string) =>
    new RegExp(`(^|[^a-z0-9_])${name}([^a-z0-9_]|$)`, 'i').test(source.replace(/--[^\n]*/g, ''));
  const readers = new Set<string>();
  for (const fn of functions) {
    const read = classes.tenant.filter((table) => mentions(fn.source, table));
    if (
      !read.length &&
      !Object.keys(classes.functions).some((other) => other !== fn.name && mentions(fn.source, other))
    )
      continue;
    readers.add(fn.name);
    const allowed = classes.functions[fn.name];
    if (fn.takesTenant) continue;
    if (!allowed)
      violations.push(
        `function ${fn.name}: reads ${read.join(', ') || 'a cross-tenant function'} without p_tenant_id and is not on the allow-list`,
      );
    else if (allowed.via && !mentions(fn.source, allowed.via))
      violations.push(`function ${fn.name}: on the allow-list to go through ${allowed.via}, but does not mention it`);
  }
  for (const name of Object.keys(classes.functions))
    if (!readers.has(name)) violations.push(`function ${name}: on the allow-list but reads no tenant table (drop it)`);

  return violations;
}
