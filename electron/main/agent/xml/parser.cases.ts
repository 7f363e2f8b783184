// The table of tricky model outputs: each input with the exact events it must give (adjacent text
// events merged). Values follow the one value rule (values.ts): a value of several lines whose closing
// tag sits on its own line ends with one line break. parser.test.ts feeds each one whole and in random chunks of 1–16 characters.
import type { ParserEvent, ShellEvent, TextEvent, ToolCallEvent, ToolMap, ToolSpec } from './types';

export type ExpectedEvent =
  | TextEvent
  | ToolCallEvent
  | ShellEvent
  | { type: 'invalid_call'; name?: string; raw: string; message: RegExp; shown?: true };

export interface ParserCase {
  name: string;
  input: string;
  events: ExpectedEvent[];
  shell?: boolean;
}

const obj = (properties: Record<string, ToolSpec['inputSchema']>, required: string[] = []): ToolSpec['inputSchema'] => ({
  type: 'object',
  properties,
  required,
});

export const caseTools: ToolMap = new Map<string, ToolSpec>([
  ['read_file', { description: 'Read a file.', inputSchema: obj({ path: { type: 'string' }, start_line: { type: 'integer' } }, ['path']) }],
  ['write_to_file', { description: 'Write a file.', inputSchema: obj({ path: { type: 'string' }, content: { type: 'string' }, line_count: { type: 'integer' } }, ['path', 'content']) }],
  ['search_files', { description: 'Search.', inputSchema: obj({ path: { type: 'string' }, regex: { type: 'string' }, file_pattern: { type: 'string' } }, ['path', 'regex']) }],
  ['execute_command', { description: 'Run a command.', inputSchema: obj({ command: { type: 'string' }, cwd: { type: 'string' } }, ['command']) }],
  [
    'configure',
    {
      description: 'Typed parameters.',
      inputSchema: obj(
        {
          verbose: { type: 'boolean' },
          level: { type: 'number' },
          retries: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
          ports: { type: 'array', items: { type: 'integer' } },
          options: { type: 'object' },
          mode: { type: 'string', enum: ['fast', 'slow'] },
        },
        ['verbose'],
      ),
    },
  ],
  ['ping', { description: 'No parameters.', inputSchema: { type: 'object', properties: {} } }],
]);

const t = (text: string): TextEvent => ({ type: 'text', text });
const call = (id: string, name: string, args: Record<string, unknown>, raw: string, more: Partial<ToolCallEvent> = {}): ToolCallEvent => ({
  type: 'tool_call',
  id,
  name,
  args,
  dependsOn: [],
  form: 'xml',
  raw,
  ...more,
});
const json = (id: string, name: string, args: Record<string, unknown>, raw: string, more: Partial<ToolCallEvent> = {}): ToolCallEvent =>
  call(id, name, args, raw, { form: 'json', ...more });
const bad = (raw: string, message: RegExp, name?: string): ExpectedEvent =>
  name === undefined ? { type: 'invalid_call', raw, message } : { type: 'invalid_call', name, raw, message };
const shown = (raw: string, message: RegExp, name: string): ExpectedEvent => ({ type: 'invalid_call', name, raw, message, shown: true });
const sh = (command: string, raw: string): ShellEvent => ({ type: 'shell', command, raw });

const READ = '<read_file>\n<path>src/main.ts</path>\n</read_file>';
const READ_B = '<read_file>\n<path>src/b.ts</path>\n</read_file>';
const rd = (id = 'call_1', path = 'src/main.ts') => call(id, 'read_file', { path }, path === 'src/main.ts' ? READ : READ_B);

const HTML = '<!doctype html>\n<html>\n  <body class="a">\n    <p>Hello &amp; welcome</p>\n    <path>not a param</path>\n  </body>\n</html>';
const WRITE_HTML = `<write_to_file>\n<path>index.html</path>\n<content>\n${HTML}\n</content>\n</write_to_file>`;
const OWN_CLOSE = 'Use </content> to end a content block.\n</content> and <b>more</b>\nlast line';
const WRITE_OWN = `<write_to_file>\n<path>doc.md</path>\n<content>\n${OWN_CLOSE}\n</content>\n<line_count>3</line_count>\n</write_to_file>`;
const CDATA_BODY = 'a </content>\n<path>evil</path>\n</write_to_file> b';
const WRITE_CDATA = `<write_to_file>\n<path>x.txt</path>\n<content><![CDATA[${CDATA_BODY}]]></content>\n</write_to_file>`;
const SEARCH_RE = '<search_files>\n<path>src</path>\n<regex></?(div|span)[^>]*>|</regex>\\s*</regex>\n</search_files>';
const ECHO = '<execute_command>\n<command>echo "<command>ls</command>" && printf \'</command>\\n\'</command>\n</execute_command>';
const CRLF = '<read_file>\r\n<path>src/main.ts</path>\r\n</read_file>';
const TYPED =
  '<configure>\n<verbose>TRUE</verbose>\n<level>2.5</level>\n<retries> 3 </retries>\n<tags>["a", "b"]</tags>\n<options>{"x": {"y": [1, null]}}</options>\n<mode>slow</mode>\n</configure>';
const JSON_FENCE = '```json\n{"tool": "read_file", "arguments": {"path": "src/main.ts", "start_line": "10"}}\n```\n';
const JSON_ARRAY = '```JSON\n[\n  {"tool": "read_file", "id": "r", "arguments": {"path": "a.ts"}},\n  {"name": "write_to_file", "arguments": {"path": "b.ts", "content": "{{r.result}}"}}\n]\n```';
const DEP_A = '<search_files id="hits">\n<path>.</path>\n<regex>TODO</regex>\n</search_files>';
const DEP_B = '<write_to_file>\n<path>todo.txt</path>\n<content>{{ hits.result }}</content>\n</write_to_file>';
const DEP_C = '<configure>\n<verbose>true</verbose>\n<retries>{{hits.result}}</retries>\n</configure>';

export const parserCases: ParserCase[] = [
  { name: 'prose only', input: 'Hello! Nothing to run here.\nJust text, with a < b and c > d.', events: [t('Hello! Nothing to run here.\nJust text, with a < b and c > d.')] },
  { name: 'one call with text before and after', input: `Let me look.\n\n${READ}\nThat is all.`, events: [t('Let me look.\n\n'), rd(), t('\nThat is all.')] },
  { name: 'the call is the whole message', input: READ, events: [rd()] },
  { name: 'two calls in order with text between', input: `First:\n${READ}\nThen:\n${READ_B}\n`, events: [t('First:\n'), rd(), t('\nThen:\n'), rd('call_2', 'src/b.ts'), t('\n')] },
  { name: 'two calls back to back without a newline', input: `${READ}${READ_B}`, events: [rd(), rd('call_2', 'src/b.ts')] },
  { name: 'call on one line', input: 'Now <read_file><path>a.ts</path></read_file> ok', events: [t('Now '), call('call_1', 'read_file', { path: 'a.ts' }, '<read_file><path>a.ts</path></read_file>'), t(' ok')] },
  { name: 'call followed by more text on the same line', input: `${READ} and then I will explain.\nMore.`, events: [rd(), t(' and then I will explain.\nMore.')] },
  { name: 'prose mention of a tool', input: 'I will use the <read_file> tool to read it.\n', events: [t('I will use the <read_file> tool to read it.\n')] },
  { name: 'mention with punctuation and a mention at the very end', input: 'The <read_file>, <write_to_file>: tools. Finally <read_file>', events: [t('The <read_file>, <write_to_file>: tools. Finally <read_file>')] },
  { name: 'unknown tool: stays text, and the model hears of it', input: 'Now:\n<open_file>\n<path>a</path>\n</open_file>\n<div>\n<p>x</p>\n</div>', events: [t('Now:\n<open_file>\n<path>a</path>\n</open_file>'), shown('<open_file>\n<path>a</path>\n</open_file>', /no tool named "open_file"[\s\S]*Available tools: read_file, write_to_file/, 'open_file'), t('\n<div>\n<p>x</p>\n</div>')] },
  { name: 'unknown tags that are not tool-like, or not at a line start, are only prose', input: '<div>\n<p>x</p>\n</div>\nsee <my_tool>\nthen </my_tool>', events: [t('<div>\n<p>x</p>\n</div>\nsee <my_tool>\nthen </my_tool>')] },
  { name: 'stray closing tag in prose', input: 'Oops </read_file> and </path>.', events: [t('Oops </read_file> and </path>.')] },
  { name: 'call shown in a plain code fence', input: `Example:\n\`\`\`\n${READ}\n\`\`\`\nDone.`, events: [t(`Example:\n\`\`\`\n${READ}\n\`\`\`\nDone.`)] },
  { name: 'call shown in an xml fence, then a real call', input: `Like this:\n\`\`\`xml\n${READ}\n\`\`\`\n${READ_B}`, events: [t(`Like this:\n\`\`\`xml\n${READ}\n\`\`\`\n`), rd('call_1', 'src/b.ts')] },
  { name: 'tilde fence, indented close', input: `~~~~\n${READ}\n~~~\n   ~~~~\nafter`, events: [t(`~~~~\n${READ}\n~~~\n   ~~~~\nafter`)] },
  { name: 'four-backtick fence containing a three-backtick fence', input: `\`\`\`\`md\n\`\`\`\n\`\`\`\n${READ}\n\`\`\`\`\n`, events: [t(`\`\`\`\`md\n\`\`\`\n\`\`\`\n${READ}\n\`\`\`\`\n`)] },
  { name: 'unclosed fence swallows the rest as text', input: `\`\`\`ts\nconst x = 1;\n${READ}`, events: [t(`\`\`\`ts\nconst x = 1;\n${READ}`)] },
  { name: 'inline code', input: 'Write `<read_file><path>a</path></read_file>` to read.\n', events: [t('Write `<read_file><path>a</path></read_file>` to read.\n')] },
  { name: 'double-backtick code span holding a backtick', input: 'Try ``<read_file>` x\n<path>a</path>``\nok', events: [t('Try ``<read_file>` x\n<path>a</path>``\nok')] },
  { name: 'inline code does not cross a line; call on the next line runs', input: `An odd \` tick\n${READ}`, events: [t('An odd ` tick\n'), rd()] },
  { name: 'triple backticks inline are not a fence', input: `\`\`\`x\`\`\` then\n${READ}`, events: [t('```x``` then\n'), rd()] },
  { name: 'calls inside thinking are not run', input: `<thinking>\nI should call\n${READ}\n</thinking>\n${READ_B}`, events: [t(`<thinking>\nI should call\n${READ}\n</thinking>\n`), rd('call_1', 'src/b.ts')] },
  { name: 'think tag (reasoning models)', input: `<think>maybe ${READ}</think>Answer.`, events: [t(`<think>maybe ${READ}</think>Answer.`)] },
  { name: 'thinking mentioned in prose does not open a block', input: `I reason in <thinking> tags first.\n${READ}`, events: [t('I reason in <thinking> tags first.\n'), rd()] },
  { name: 'thinking opens after indentation, closes mid-line', input: `  <thinking>plan: ${READ_B}</thinking> ok\n${READ}`, events: [t(`  <thinking>plan: ${READ_B}</thinking> ok\n`), rd()] },
  { name: 'unclosed thinking keeps everything as text', input: `<thinking>\n${READ}`, events: [t(`<thinking>\n${READ}`)] },
  { name: 'one-line file content with its tags on their own lines keeps its line break', input: '<write_to_file>\n<path>a.txt</path>\n<content>\nhello\n</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 'a.txt', content: 'hello\n' }, '<write_to_file>\n<path>a.txt</path>\n<content>\nhello\n</content>\n</write_to_file>')] },
  { name: 'nested tags in file content', input: `Writing:\n${WRITE_HTML}`, events: [t('Writing:\n'), call('call_1', 'write_to_file', { path: 'index.html', content: `${HTML}\n` }, WRITE_HTML)] },
  { name: "content holding the parameter's own closing tag", input: WRITE_OWN, events: [call('call_1', 'write_to_file', { path: 'doc.md', content: `${OWN_CLOSE}\n`, line_count: 3 }, WRITE_OWN)] },
  { name: 'CDATA value with closing tags inside', input: WRITE_CDATA, events: [call('call_1', 'write_to_file', { path: 'x.txt', content: CDATA_BODY }, WRITE_CDATA)] },
  { name: 'CDATA-like text inside a value is kept verbatim', input: '<write_to_file>\n<path>a</path>\n<content>\nx <![CDATA[ y ]]> z\n</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 'a', content: 'x <![CDATA[ y ]]> z\n' }, '<write_to_file>\n<path>a</path>\n<content>\nx <![CDATA[ y ]]> z\n</content>\n</write_to_file>')] },
  { name: 'regex with </ and its own closing tag', input: SEARCH_RE, events: [call('call_1', 'search_files', { path: 'src', regex: '</?(div|span)[^>]*>|</regex>\\s*' }, SEARCH_RE)] },
  { name: 'shell command echoing tags', input: ECHO, events: [call('call_1', 'execute_command', { command: 'echo "<command>ls</command>" && printf \'</command>\\n\'' }, ECHO)] },
  { name: 'fence markers inside a parameter value', input: '<write_to_file>\n<path>r.md</path>\n<content>\n```js\nx\n```\n</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 'r.md', content: '```js\nx\n```\n' }, '<write_to_file>\n<path>r.md</path>\n<content>\n```js\nx\n```\n</content>\n</write_to_file>')] },
  { name: 'entities in a single-line value are decoded', input: '<read_file><path>a &amp; b &lt;1&gt;.txt</path></read_file>', events: [call('call_1', 'read_file', { path: 'a & b <1>.txt' }, '<read_file><path>a &amp; b &lt;1&gt;.txt</path></read_file>')] },
  { name: 'an escaped value is decoded throughout, numeric entities too', input: '<write_to_file>\n<path>a.html</path>\n<content>\n&lt;p class=&quot;x&quot;&gt;&#x41;&#66;&lt;/p&gt;\n&amp;nbsp;\n</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 'a.html', content: '<p class="x">AB</p>\n&nbsp;\n' }, '<write_to_file>\n<path>a.html</path>\n<content>\n&lt;p class=&quot;x&quot;&gt;&#x41;&#66;&lt;/p&gt;\n&amp;nbsp;\n</content>\n</write_to_file>')] },
  { name: 'raw markup keeps its entities', input: WRITE_HTML.replace('index.html', 'e.html'), events: [call('call_1', 'write_to_file', { path: 'e.html', content: `${HTML}\n` }, WRITE_HTML.replace('index.html', 'e.html'))] },
  { name: 'unicode in prose and values', input: 'Café ☕ — 日本語 🚀\n<read_file>\n<path>données/日本 🚀.md</path>\n</read_file>\n✅', events: [t('Café ☕ — 日本語 🚀\n'), call('call_1', 'read_file', { path: 'données/日本 🚀.md' }, '<read_file>\n<path>données/日本 🚀.md</path>\n</read_file>'), t('\n✅')] },
  { name: 'CRLF line endings', input: `Reading.\r\n${CRLF}\r\nDone.\r\n`, events: [t('Reading.\r\n'), call('call_1', 'read_file', { path: 'src/main.ts' }, CRLF), t('\r\nDone.\r\n')] },
  { name: 'multi-line values keep indentation and inner blank lines', input: '<write_to_file>\n<path>  p.py  </path>\n<content>\n  def f():\n\n      return 1\n</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 'p.py', content: '  def f():\n\n      return 1\n' }, '<write_to_file>\n<path>  p.py  </path>\n<content>\n  def f():\n\n      return 1\n</content>\n</write_to_file>')] },
  { name: 'empty parameters', input: '<search_files>\n<path>.</path>\n<regex>x</regex>\n<file_pattern></file_pattern>\n</search_files>', events: [call('call_1', 'search_files', { path: '.', regex: 'x', file_pattern: '' }, '<search_files>\n<path>.</path>\n<regex>x</regex>\n<file_pattern></file_pattern>\n</search_files>')] },
  { name: 'tool without parameters', input: 'Check:\n<ping>\n</ping>\n<ping></ping>', events: [t('Check:\n'), call('call_1', 'ping', {}, '<ping>\n</ping>'), t('\n'), call('call_2', 'ping', {}, '<ping></ping>')] },
  { name: 'self-closing call with attributes', input: 'Go <read_file path="a&amp;b.ts" start_line="5"/>\n', events: [t('Go '), call('call_1', 'read_file', { path: 'a&b.ts', start_line: 5 }, '<read_file path="a&amp;b.ts" start_line="5"/>'), t('\n')] },
  { name: 'typed values coerced by the schema', input: TYPED, events: [call('call_1', 'configure', { verbose: true, level: 2.5, retries: 3, tags: ['a', 'b'], options: { x: { y: [1, null] } }, mode: 'slow' }, TYPED)] },
  { name: 'array given one item per line', input: '<configure>\n<verbose>no</verbose>\n<ports>\n80\n443\n</ports>\n</configure>', events: [call('call_1', 'configure', { verbose: false, ports: [80, 443] }, '<configure>\n<verbose>no</verbose>\n<ports>\n80\n443\n</ports>\n</configure>')] },
  { name: 'wrong types give a corrective message', input: '<configure>\n<verbose>maybe</verbose>\n<retries>2.5</retries>\n<mode>medium</mode>\n</configure>', events: [bad('<configure>\n<verbose>maybe</verbose>\n<retries>2.5</retries>\n<mode>medium</mode>\n</configure>', /"verbose" must be true or false[\s\S]*"retries" must be an integer[\s\S]*"mode" must be one of "fast", "slow"[\s\S]*<configure>/, 'configure')] },
  { name: 'missing required parameter', input: '<write_to_file>\n<path>a.txt</path>\n</write_to_file>', events: [bad('<write_to_file>\n<path>a.txt</path>\n</write_to_file>', /Missing required parameter "content"[\s\S]*content \(required, string\)/, 'write_to_file')] },
  { name: 'unknown parameter', input: '<read_file>\n<file>a.txt</file>\n</read_file>', events: [bad('<read_file>\n<file>a.txt</file>\n</read_file>', /no parameter "file"[\s\S]*Missing required parameter "path"[\s\S]*<read_file>\n<path>/, 'read_file')] },
  { name: 'missing closing tag at the end', input: 'Reading\n<read_file>\n<path>a.txt</path>\n', events: [t('Reading\n'), bad('<read_file>\n<path>a.txt</path>\n', /without its closing tag <\/read_file>/, 'read_file')] },
  { name: 'missing parameter closing tag', input: '<read_file>\n<path>a.txt\n</read_file>\nThanks', events: [bad('<read_file>\n<path>a.txt\n</read_file>\nThanks', /inside the "path" parameter\. Close it with <\/path>/, 'read_file')] },
  { name: 'missing closing tag before the next call', input: `<read_file>\n<path>a.txt</path>\n\n${READ_B}`, events: [bad('<read_file>\n<path>a.txt</path>\n\n', /no closing tag <\/read_file> before the next call/, 'read_file'), rd('call_1', 'src/b.ts')] },
  { name: 'stray text before the first parameter is ignored', input: '<read_file>\nHere is the path:\n<path>a.txt</path>\n</read_file>', events: [call('call_1', 'read_file', { path: 'a.txt' }, '<read_file>\nHere is the path:\n<path>a.txt</path>\n</read_file>')] },
  { name: "text after a parameter's closing tag is reported", input: '<read_file>\n<path>a.txt</path> (that one)\n</read_file>\nok', events: [bad('<read_file>\n<path>a.txt</path> (that one)\n</read_file>\nok', /after <\/path> there must be the next parameter's opening tag or <\/read_file>/, 'read_file')] },
  { name: 'opening tag followed by spaces and a line break', input: '<read_file>   \n<path>a</path>\n</read_file>', events: [call('call_1', 'read_file', { path: 'a' }, '<read_file>   \n<path>a</path>\n</read_file>')] },
  { name: 'call inside a markdown list item', input: '1. Read it:\n   <read_file>\n   <path>a.ts</path>\n   </read_file>\n2. Done', events: [t('1. Read it:\n   '), call('call_1', 'read_file', { path: 'a.ts' }, '<read_file>\n   <path>a.ts</path>\n   </read_file>'), t('\n2. Done')] },
  { name: 'JSON call in a json fence', input: `Calling:\n${JSON_FENCE}ok`, events: [t('Calling:\n'), json('call_1', 'read_file', { path: 'src/main.ts', start_line: 10 }, JSON_FENCE), t('ok')] },
  { name: 'JSON array of calls with a dependency', input: JSON_ARRAY, events: [json('r', 'read_file', { path: 'a.ts' }, JSON_ARRAY), json('call_2', 'write_to_file', { path: 'b.ts', content: '{{r.result}}' }, JSON_ARRAY, { dependsOn: ['r'] })] },
  { name: 'ordinary JSON in a json fence stays text', input: '```json\n{"name": "erasmus", "version": 1}\n```\n```json\n"just a string"\n```', events: [t('```json\n{"name": "erasmus", "version": 1}\n```\n```json\n"just a string"\n```')] },
  { name: 'JSON call to an unknown tool', input: '```json\n{"tool": "delete_everything", "arguments": {}}\n```', events: [bad('```json\n{"tool": "delete_everything", "arguments": {}}\n```', /Unknown tool "delete_everything"[\s\S]*Available tools: read_file, write_to_file/, 'delete_everything')] },
  { name: 'JSON call in a plain fence is only shown', input: '```\n{"tool": "read_file", "arguments": {"path": "a"}}\n```', events: [t('```\n{"tool": "read_file", "arguments": {"path": "a"}}\n```')] },
  { name: 'depends chain with ids and placeholders', input: `${DEP_A}\n${DEP_B}\n${DEP_C}`, events: [call('hits', 'search_files', { path: '.', regex: 'TODO' }, DEP_A), t('\n'), call('call_2', 'write_to_file', { path: 'todo.txt', content: '{{ hits.result }}' }, DEP_B, { dependsOn: ['hits'] }), t('\n'), call('call_3', 'configure', { verbose: true, retries: '{{hits.result}}' }, DEP_C, { dependsOn: ['hits'] })] },
  { name: 'template braces that name no earlier call stay literal', input: '<write_to_file>\n<path>t.hbs</path>\n<content>{{user.result}} {{#each x}}</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 't.hbs', content: '{{user.result}} {{#each x}}' }, '<write_to_file>\n<path>t.hbs</path>\n<content>{{user.result}} {{#each x}}</content>\n</write_to_file>')] },
  { name: 'duplicate id and a call depending on a failed call', input: '<read_file id="a">\n<path>x</path>\n</read_file>\n<read_file id="a">\n<path>y</path>\n</read_file>\n<read_file id="b">\n</read_file>\n<read_file>\n<path>{{b.result}}</path>\n</read_file>', events: [call('a', 'read_file', { path: 'x' }, '<read_file id="a">\n<path>x</path>\n</read_file>'), t('\n'), bad('<read_file id="a">\n<path>y</path>\n</read_file>', /id "a" is already used/, 'read_file'), t('\n'), bad('<read_file id="b">\n</read_file>', /Missing required parameter "path"/, 'read_file'), t('\n'), bad('<read_file>\n<path>{{b.result}}</path>\n</read_file>', /uses the result of "b", which could not run/, 'read_file')] },
  { name: 'shell lines', input: 'Checking.\n!git status --short\n![diagram](d.png)\nWow!\n!!\n! npm test\n', events: [t('Checking.\n'), sh('git status --short', '!git status --short'), t('\n![diagram](d.png)\nWow!\n!!\n'), sh('npm test', '! npm test'), t('\n')] },
  { name: 'shell line with a continuation, CRLF, at the end', input: '!docker run \\\r\n  -it img\r\n!ls', events: [sh('docker run \\\r\n  -it img', '!docker run \\\r\n  -it img\r'), t('\n'), sh('ls', '!ls')] },
  { name: 'shell disabled', input: '!rm -rf build\n', events: [t('!rm -rf build\n')], shell: false },
  { name: 'shell line in a fence or mid-line is not run', input: '```sh\n!ls\n```\nthen !ls', events: [t('```sh\n!ls\n```\nthen !ls')] },
  { name: 'comparisons and arrows in prose', input: 'if a<b && c<-d then x <= y; <read_filez>\n<<read_file>>\n', events: [t('if a<b && c<-d then x <= y; <read_filez>\n<<read_file>>\n')] },
  { name: 'value holding the same tag nested', input: '<write_to_file>\n<path>a.xml</path>\n<content>\n<doc><content>x</content>\n</doc>\n</content>\n</write_to_file>', events: [call('call_1', 'write_to_file', { path: 'a.xml', content: '<doc><content>x</content>\n</doc>\n' }, '<write_to_file>\n<path>a.xml</path>\n<content>\n<doc><content>x</content>\n</doc>\n</content>\n</write_to_file>')] },
  { name: 'two one-line calls on one line', input: '<read_file><path>a</path></read_file> <read_file path="b"/>', events: [call('call_1', 'read_file', { path: 'a' }, '<read_file><path>a</path></read_file>'), t(' '), call('call_2', 'read_file', { path: 'b' }, '<read_file path="b"/>')] },
  { name: 'a parameter repeated: the last one wins', input: '<read_file>\n<path>a</path>\n<path>b</path>\n</read_file>', events: [call('call_1', 'read_file', { path: 'b' }, '<read_file>\n<path>a</path>\n<path>b</path>\n</read_file>')] },
  { name: 'two calls of different tools, real transcript shape', input: `I'll check the file first, then fix it.\n\n<read_file>\n<path>src/app.ts</path>\n</read_file>\n\n<execute_command>\n<command>npm test -- --grep "<App/>"</command>\n<cwd>./web</cwd>\n</execute_command>\n\nLet me know.`, events: [t("I'll check the file first, then fix it.\n\n"), call('call_1', 'read_file', { path: 'src/app.ts' }, '<read_file>\n<path>src/app.ts</path>\n</read_file>'), t('\n\n'), call('call_2', 'execute_command', { command: 'npm test -- --grep "<App/>"', cwd: './web' }, '<execute_command>\n<command>npm test -- --grep "<App/>"</command>\n<cwd>./web</cwd>\n</execute_command>'), t('\n\nLet me know.')] },
];

/** Adjacent text events merged, so that events can be compared whatever the chunking. */
export function mergeText(events: readonly ParserEvent[]): ParserEvent[] {
  const out: ParserEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + e.text };
    else if (e.type !== 'text' || e.text !== '') out.push(e);
  }
  return out;
}
