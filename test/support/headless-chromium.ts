/**
 * Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON
 * messages ended by a NUL byte on file descriptors 3 and 4), so a test can load a page, wait for
 * what its script builds, make requests meanwhile, read the console and the network, and take a
 * screenshot, with no package and no port. `CHROMIUM` is undefined when it is not installed;
 * tests then skip with a reason.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

interface Reply {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly message: string };
  readonly sessionId?: string;
}

export interface PageEvents {
  /** Console messages and browser log entries (CSP violations are reported there). */
  readonly messages: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
}

export class HeadlessPage {
  private constructor(
    private readonly browser: Browser,
    private readonly sessionId: string,
    readonly events: PageEvents,
  ) {}

  static async open(browser: Browser, width = 1280, height = 900): Promise<HeadlessPage> {
    const { targetId } = (await browser.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const events: PageEvents = { messages: [], requests: [] };
    browser.onEvent(sessionId, (method, params) => {
      if (method === 'Runtime.consoleAPICalled') events.messages.push(((params.args as Array<{ value?: unknown }> | undefined) ?? []).map((arg) => String(arg.value)).join(' '));
      if (method === 'Log.entryAdded') events.messages.push(String((params.entry as { text?: unknown } | undefined)?.text));
      if (method === 'Network.requestWillBeSent') events.requests.push(String((params.request as { url?: unknown } | undefined)?.url));
    });
    const page = new HeadlessPage(browser, sessionId, events);
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await page.send(`${domain}.enable`);
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.browser.send(method, params, this.sessionId);
  }

  /** Navigates and resolves once the load event fired. */
  async goto(url: string): Promise<void> {
    const loaded = this.browser.nextEvent(this.sessionId, 'Page.loadEventFired');
    await this.send('Page.navigate', { url });
    await loaded;
  }

  /** The value of `expression` in the page (promises awaited, result as JSON). */
  async evaluate<T>(expression: string): Promise<T> {
    const reply = (await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as { result: { value?: T }; exceptionDetails?: { text: string } };
    if (reply.exceptionDetails) throw new Error(`${expression}: ${reply.exceptionDetails.text}`);
    return reply.result.value as T;
  }

  /** Waits (up to `timeoutMs`) until `expression` is truthy in the page; returns its value. */
  async waitFor<T>(expression: string, timeoutMs = 15_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await this.evaluate<T>(expression);
      if (value) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async screenshot(): Promise<Buffer> {
    const { data } = (await this.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true })) as { data: string };
    return Buffer.from(data, 'base64');
  }
}

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<(reply: Reply) => void>();
  private buffered = '';

  private constructor(private readonly child: ChildProcess) {
    const output = child.stdio[4] as Readable;
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => this.read(chunk));
    child.on('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error('chromium exited'));
      this.pending.clear();
    });
  }

  /** Starts headless Chromium with a fresh profile in `profileDir`. */
  static async launch(profileDir: string): Promise<Browser> {
    if (!CHROMIUM) throw new Error('chromium is not installed');
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--remote-debugging-pipe', `--user-data-dir=${profileDir}`, 'about:blank'];
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const browser = new Browser(child);
    await browser.send('Browser.getVersion');
    return browser;
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const input = this.child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  onEvent(sessionId: string, listener: (method: string, params: Record<string, unknown>) => void): void {
    this.listeners.add((reply) => {
      if (reply.sessionId === sessionId && reply.method) listener(reply.method, reply.params ?? {});
    });
  }

  nextEvent(sessionId: string, method: string): Promise<void> {
    return new Promise((resolve) => {
      const listener = (reply: Reply): void => {
        if (reply.sessionId !== sessionId || reply.method !== method) return;
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  /** Closes the browser and waits for its process to end. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private read(text: string): void {
    this.buffered += text;
    for (let end = this.buffered.indexOf('\0'); end >= 0; end = this.buffered.indexOf('\0')) {
      const reply = JSON.parse(this.buffered.slice(0, end)) as Reply;
      this.buffered = this.buffered.slice(end + 1);
      const waiting = reply.id === undefined ? undefined : this.pending.get(reply.id);
      if (waiting && reply.id !== undefined) {
        this.pending.delete(reply.id);
        if (reply.error) waiting.reject(new Error(reply.error.message));
        else waiting.resolve(reply.result ?? {});
      }
      for (const listener of [...this.listeners]) listener(reply);
    }
  }
}
