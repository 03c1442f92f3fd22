// Loads editors/vscode as VS Code would (its manifest's `main`), with the
// two modules VS Code and `npm install` would give it stood in for, then
// activates it and starts the language server the way its client says:
// the command, arguments and initialization options it passes to
// vscode-languageclient, spawned here and spoken to over standard input
// and output as the client would (initialize, open a .flow file of the
// language its document selector names, wait for diagnostics, shut down).
// Writes what it saw as one JSON line to standard output.
//   FLOW_BINARY=.build/debug/flow node editors/tests/vscode_activation.js
'use strict';
const Module = require('module');
const path = require('path');
const fs = require('fs');
const { spawn } = require('child_process');

const folder = path.join(__dirname, '..', 'vscode');
const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
const seen = { activationEvents: manifest.activationEvents, configurationRead: [], stopped: false };

// What VS Code gives an extension: the setting the user may have set.
const vscode = {
  workspace: {
    getConfiguration(section) {
      return { get(key) { seen.configurationRead.push(`${section}.${key}`); return key === 'path' ? process.env.FLOW_BINARY : undefined; } };
    },
  },
};

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

// What vscode-languageclient's node client does with the options it is
// given, as far as starting the server goes.
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(seen, { id, name, command: serverOptions.command, args: serverOptions.args,
      documentSelector: clientOptions.documentSelector, initializationOptions: clientOptions.initializationOptions });
    this.serverOptions = serverOptions;
    this.clientOptions = clientOptions;
  }

  start() {
    return new Promise((resolve, reject) => {
      const server = spawn(this.serverOptions.command, this.serverOptions.args, { stdio: ['pipe', 'pipe', 'inherit'] });
      server.on('error', reject);
      let buffered = Buffer.alloc(0);
      const waiting = [];
      server.stdout.on('data', (chunk) => {
        buffered = Buffer.concat([buffered, chunk]);
        for (;;) {
          const end = buffered.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = Number(/Content-Length: (\d+)/i.exec(buffered.slice(0, end).toString('ascii'))[1]);
          if (buffered.length < end + 4 + length) return;
          const message = JSON.parse(buffered.slice(end + 4, end + 4 + length).toString('utf8'));
          buffered = buffered.slice(end + 4 + length);
          const index = waiting.findIndex((w) => w.matches(message));
          if (index >= 0) waiting.splice(index, 1)[0].resolve(message);
        }
      });
      const next = (matches) => new Promise((done) => waiting.push({ matches, resolve: done }));
      const language = this.clientOptions.documentSelector[0].language;
      const uri = 'file:///work/activation.flow';
      (async () => {
        server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize',
          params: { processId: process.pid, rootUri: null, capabilities: { textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } },
            initializationOptions: this.clientOptions.initializationOptions } }));
        const initialized = await next((m) => m.id === 1);
        seen.serverInfo = initialized.result.serverInfo;
        seen.hoverProvider = initialized.result.capabilities.hoverProvider;
        server.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
        server.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen',
          params: { textDocument: { uri, languageId: language, version: 1, text: 'let a = cold("-a-b|").mapp { $0 }\n' } } }));
        const published = await next((m) => m.method === 'textDocument/publishDiagnostics');
        seen.diagnostics = published.params.diagnostics.map((d) => `${d.code}: ${d.message}`);
        server.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
        await next((m) => m.id === 2);
        server.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
        server.on('exit', (code) => { seen.serverExit = code; resolve(); });
      })().catch(reject);
    });
  }

  stop() {
    seen.stopped = true;
    return Promise.resolve();
  }
}

// VS Code resolves `vscode` itself; `npm install` puts vscode-languageclient
// in node_modules. Both stand in here, even where node_modules exists.
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return { LanguageClient };
  return load.call(this, request, parent, isMain);
};

(async () => {
  const extension = require(path.resolve(folder, manifest.main));
  seen.exports = Object.keys(extension).sort();
  await extension.activate({ subscriptions: [] });
  await extension.deactivate();
  process.stdout.write(JSON.stringify(seen) + '\n');
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
