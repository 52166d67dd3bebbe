/** The development page's static markup: the panels the script fills. */

/** A panel with a heading, a count, and a table of the given column headings. */
function tablePanel(id: string, title: string, columns: readonly string[]): string {
  const heads = columns.map((column) => `<th>${column}</th>`).join('');
  return `<section id="${id}-panel"><h2>${title} <small id="${id}-total"></small></h2><table id="${id}"><thead><tr>${heads}</tr></thead><tbody></tbody></table></section>`;
}

export const PAGE_BODY = [
  '<header><h1 id="realm">chat-server</h1><span id="level" class="muted"></span><span>world time <span id="clock" class="mono"></span></span><span id="status" class="muted">connecting</span></header>',
  '<main>',
  tablePanel('users', 'Users', ['Name', 'Email', 'Role', 'ID', 'API key']),
  tablePanel('channels', 'Channels', ['Name', 'Access', 'Subscribers', 'Description']),
  '<section id="messages-panel"><h2>Recent messages <small id="messages-total"></small></h2><ol id="messages"></ol></section>',
  tablePanel('queues', 'Event queues', ['Queue', 'User', 'Event types', 'Pending', 'Polling', 'Expires in']),
  '<section id="log-panel"><h2>Live log <small>requests and events, newest first</small></h2><ol id="log"></ol></section>',
  '</main>',
].join('\n');
