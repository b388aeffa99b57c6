// Relationships through views from the views' stored query trees (pg_node_tree text): columns copied as
// they are carry their keys, through a view of a view; computed columns and junk entries do not; names
// with escaped characters (spaces, parentheses, a leading colon) read back whole.
import assert from "node:assert/strict";
import { type BaseForeignKey, viewRelationships } from "../../../supabase/local/rest/views.ts";

/** A view's query tree, as pg_rewrite.ev_action's text writes it, with the given target entries. */
function tree(entries: string[]): string {
  return `({QUERY :commandType 1 :rtable ({RANGETBLENTRY :eref {ALIAS :aliasname t :colnames ("id" "owner\\ \\(x\\)")} ` +
    `:relid 100}) :targetList (${entries.join(" ")}) :override 0 :limitCount <>})`;
}
const entry = (resno: number, name: string, table: number, column: number, junk = false) =>
  `{TARGETENTRY :expr {VAR :varno 1 :varattno ${column}} :resno ${resno} :resname ${name} :ressortgroupref 0 ` +
  `:resorigtbl ${table} :resorigcol ${column} :resjunk ${junk}}`;

const FK: BaseForeignKey = {
  name: "processes_factory_fkey",
  tableOid: "100",
  tableSchema: "private",
  table: "processes",
  refOid: "200",
  refSchema: "private",
  refTable: "factories",
  columns: [[2, "factory_id"]],
  refColumns: [[1, "id"]],
  oneToOne: false,
};

Deno.test("finds foreign keys through views, a view of a view, and the primary key a view shows", () => {
  const views = [
    {
      oid: "300",
      schema: "public",
      name: "v_processes",
      definition: tree([
        entry(1, "id", 100, 1),
        entry(2, "owner\\ \\(x\\)", 100, 2),
        `{TARGETENTRY :expr {CONST :constvalue 4 [ 1 0 0 0 ]} :resno 3 :resname k :resorigtbl 0 :resorigcol 0 :resjunk false}`,
      ]),
      columns: [[1, "id"], [2, "owner (x)"], [3, "k"]] as Array<[number, string]>,
    },
    {
      oid: "400",
      schema: "public",
      name: "v_factories",
      definition: tree([entry(1, ":id", 200, 1)]),
      columns: [[1, ":id"]] as Array<[number, string]>,
    },
    {
      oid: "500",
      schema: "public",
      name: "v_near",
      definition: tree([entry(1, "id", 400, 1), entry(2, "junk", 200, 1, true)]),
      columns: [[1, "id"]] as Array<[number, string]>,
    },
    // Copies the key column computed: no relationship.
    {
      oid: "600",
      schema: "public",
      name: "v_labels",
      definition: tree([entry(1, "id", 0, 0)]),
      columns: [[1, "id"]] as Array<[number, string]>,
    },
  ];
  const { foreignKeys, viewPrimaryKeys } = viewRelationships("public", views, [FK], [{
    tableOid: "200",
    columns: [1],
  }]);
  assert.deepEqual(
    foreignKeys.map((f) => `${f.table}(${f.columns}) -> ${f.refTable}(${f.refColumns})`),
    ["v_processes(owner (x)) -> v_factories(:id)", "v_processes(owner (x)) -> v_near(id)"],
  );
  assert.ok(foreignKeys.every((f) => f.tableIsView && f.refIsView && f.name === FK.name && !f.oneToOne));
  assert.deepEqual([...viewPrimaryKeys], [["v_factories", [":id"]], ["v_near", ["id"]]]);

  // In the tables' own schema: the tables' key, and each table with the views of that schema (none here).
  const own = viewRelationships("private", views, [FK], []);
  assert.deepEqual(own.foreignKeys.map((f) => `${f.table} -> ${f.refTable}`), ["processes -> factories"]);
});
