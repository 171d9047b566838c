// The reference of `svc orders list` in bench/startup.mjs: bare Node, its own fetch, the same
// request (one page of 25 orders, the key in SVC_API_KEY) and the ids printed one a line.
const response = await fetch(`${process.env.SVC_BASE_URL}/rest/v1/orders?limit=25`, {
  headers: { authorization: `Bearer ${process.env.SVC_API_KEY}`, accept: 'application/json' },
});
if (!response.ok) throw new Error(`GET /orders answered ${response.status}`);
const page = await response.json();
process.stdout.write(`${page.data.map((order) => order.id).join('\n')}\n`);
