/// <reference lib="dom" />
// A minimal MCP Apps host for the tests, built on the extension's own host side (ext-apps 2.x's
// app bridge, with no MCP client of its own): it renders the app's HTML in a sandboxed iframe and
// forwards the app's tool calls to the test's MCP client (exposed to the page as `hostCallTool`),
// which may speak either protocol era.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

declare global {
  interface Window {
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    startHost(html: string, context: Record<string, unknown>): Promise<void>;
    hostReady?: boolean;
  }
}

window.startHost = async (html, context) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = 'width: 640px; height: 520px; border: 1px solid #888';
  document.body.append(iframe);
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = html;
  await loaded;
  const bridge = new AppBridge(
    null,
    { name: 'raider-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {} },
  );
  bridge.oncalltool = async (params) => (await window.hostCallTool(params)) as never;
  bridge.setHostContext(context as never);
  bridge.oninitialized = () => {
    window.hostReady = true;
  };
  const target = iframe.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(target, target));
};
