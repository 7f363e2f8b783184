import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError, type ProvidersState, type RunnerSettingsView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { AgentDefaults } from './AgentDefaults';
import { PromptSections } from './PromptSections';
import { Providers } from './Providers';
import { AllowedHosts } from './AllowedHosts';
import { RewriteRules } from './RewriteRules';
import { SettingsView } from './SettingsView';

afterEach(cleanup);

const KINDS = ['openai', 'anthropic', 'openai-compatible'];

describe('Providers', () => {
  it('says when there is none, checks the form, adds a provider with a new key and shows what the core refuses', async () => {
    let state: ProvidersState = { defaultProvider: null, providers: [], kinds: KINDS, file: '/home/u/.erasmus/config.yaml' };
    const core = new FakeCore({
      'settings.providers.list': () => state,
      'secrets.list': () => ({ names: ['EXISTING_KEY'] }),
      'settings.providers.add': ({ provider }) => {
        if (provider.id === 'dup') throw new Error('a provider with id "dup" already exists; pick another id or edit that one');
        state = { ...state, providers: [...state.providers, { ...provider, apiKey: '${secret:OPENAI_API_KEY}' }] };
        return state;
      },
      'settings.providers.setDefault': ({ id }) => (state = { ...state, defaultProvider: id }),
    });
    core.render(<Providers />);
    await screen.findByTestId('providers-empty');
    fireEvent.click(screen.getByTestId('provider-add'));
    fireEvent.change(screen.getByTestId('provider-id'), { target: { value: 'oa' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/model name/);
    expect(screen.getByTestId('provider-model').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByTestId('provider-kind'), { target: { value: 'openai' } });
    fireEvent.change(screen.getByTestId('provider-model'), { target: { value: 'gpt-4.1' } });
    fireEvent.change(screen.getByTestId('provider-keyMode'), { target: { value: 'new' } });
    fireEvent.change(screen.getByTestId('provider-secretName'), { target: { value: 'OPENAI_API_KEY' } });
    fireEvent.change(screen.getByTestId('provider-keyValue'), { target: { value: 'sk-123' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    const row = await screen.findByTestId('provider-oa');
    expect(row.textContent).toContain('${secret:OPENAI_API_KEY}');
    expect(row.textContent).not.toContain('sk-123');
    expect(core.callsOf('settings.providers.add')).toEqual([{ provider: { id: 'oa', kind: 'openai', model: 'gpt-4.1' }, key: { secret: 'OPENAI_API_KEY', value: 'sk-123' } }]);
    expect(screen.queryByTestId('provider-form')).toBeNull();

    fireEvent.click(within(row).getByLabelText('Make oa the default'));
    await waitFor(() => expect(within(screen.getByTestId('provider-oa')).getByText('default')).toBeTruthy());

    fireEvent.click(screen.getByTestId('provider-add'));
    fireEvent.change(screen.getByTestId('provider-id'), { target: { value: 'dup' } });
    fireEvent.change(screen.getByTestId('provider-model'), { target: { value: 'm' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/"dup" already exists/);
    expect(screen.getByTestId('provider-form')).toBeTruthy();
  });
});

describe('Settings: API keys and providers', () => {
  it("a key saved with a new provider is listed under API keys at once, and a key saved there is offered to the providers' form", async () => {
    let names: string[] = [];
    let state: ProvidersState = { defaultProvider: null, providers: [], kinds: KINDS, file: '/h/config.yaml' };
    const core = new FakeCore({
      'settings.providers.list': () => state,
      'secrets.list': () => ({ names }),
      'secrets.set': ({ name }) => {
        names = [...names, name];
        return { ok: true as const };
      },
      'settings.providers.add': ({ provider, key }) => {
        if (key) names = [...names, key.secret];
        state = { ...state, providers: [...state.providers, { ...provider, ...(key ? { apiKey: `\${secret:${key.secret}}` } : {}) }] };
        return state;
      },
    });
    core.render(<SettingsView theme="system" onTheme={() => {}} notifications="default" onRequestNotifications={() => {}} />);
    const keys = await screen.findByTestId('api-keys');
    await waitFor(() => expect(keys.textContent).toContain('No keys saved yet.'));
    fireEvent.click(screen.getByTestId('provider-add'));
    fireEvent.change(screen.getByTestId('provider-id'), { target: { value: 'claude' } });
    fireEvent.change(screen.getByTestId('provider-kind'), { target: { value: 'anthropic' } });
    fireEvent.change(screen.getByTestId('provider-model'), { target: { value: 'claude-sonnet-4-5' } });
    fireEvent.change(screen.getByTestId('provider-keyMode'), { target: { value: 'new' } });
    fireEvent.change(screen.getByTestId('provider-secretName'), { target: { value: 'ANTHROPIC_API_KEY' } });
    fireEvent.change(screen.getByTestId('provider-keyValue'), { target: { value: 'sk-ant-1' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    await screen.findByTestId('provider-claude');
    await waitFor(() => expect(keys.textContent).toContain('ANTHROPIC_API_KEY'));
    expect(keys.textContent).not.toContain('No keys saved yet.');
    // A key saved under API keys: the providers' form offers it without a reload.
    fireEvent.change(screen.getByTestId('secret-name'), { target: { value: 'OPENAI_API_KEY' } });
    fireEvent.change(screen.getByTestId('secret-value'), { target: { value: 'sk-2' } });
    fireEvent.click(screen.getByTestId('secret-save'));
    await screen.findByTestId('secret-OPENAI_API_KEY');
    fireEvent.click(screen.getByTestId('provider-add'));
    fireEvent.change(screen.getByTestId('provider-keyMode'), { target: { value: 'secret' } });
    await waitFor(() => expect([...screen.getByTestId('provider-secretName').querySelectorAll('option')].map((o) => o.textContent)).toEqual(['choose…', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY']));
  });
});

describe('Provider limits, reasoning and prices', () => {
  it('sends the reasoning setting the kind takes, prices and limits; an edit keeps what the form does not show', async () => {
    let state: ProvidersState = {
      defaultProvider: null,
      providers: [{ id: 'c', kind: 'anthropic', model: 'claude-sonnet-4-5', apiKey: '${secret:K}', store: false, reasoning: { budgetTokens: 4000 }, pricing: { input: 3, output: 15 } }],
      kinds: [...KINDS, 'openrouter', 'openai-compatible'],
      file: '/h/config.yaml',
    };
    const core = new FakeCore({
      'settings.providers.list': () => state,
      'secrets.list': () => ({ names: ['K'] }),
      'settings.providers.update': ({ provider }) => ((state = { ...state, providers: [provider] }), state),
      'settings.providers.add': ({ provider }) => ((state = { ...state, providers: [...state.providers, provider] }), state),
    });
    core.render(<Providers />);
    const row = await screen.findByTestId('provider-c');
    fireEvent.click(within(row).getByRole('button', { name: /edit/i }));
    expect((screen.getByTestId('provider-thinkingBudget') as HTMLInputElement).value).toBe('4000');
    expect(screen.queryByTestId('provider-reasoningEffort')).toBeNull();
    expect((screen.getByTestId('provider-priceInput') as HTMLInputElement).value).toBe('3');
    fireEvent.change(screen.getByTestId('provider-thinkingBudget'), { target: { value: '8000' } });
    fireEvent.change(screen.getByTestId('provider-maxOutputTokens'), { target: { value: '16000' } });
    fireEvent.change(screen.getByTestId('provider-priceCacheRead'), { target: { value: '0.3' } });
    fireEvent.change(screen.getByTestId('provider-priceCacheWrite'), { target: { value: 'cheap' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/US dollars per million tokens/);
    expect(screen.getByTestId('provider-priceCacheWrite').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByTestId('provider-priceCacheWrite'), { target: { value: '3.75' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    await waitFor(() => expect(core.callsOf('settings.providers.update')).toHaveLength(1));
    expect((core.callsOf('settings.providers.update')[0] as { provider: unknown }).provider).toEqual({
      id: 'c',
      kind: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: '${secret:K}',
      store: false,
      maxOutputTokens: 16000,
      reasoning: { budgetTokens: 8000 },
      pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });

    // A new openai provider takes an effort; a price without its pair is refused.
    fireEvent.click(await screen.findByTestId('provider-add'));
    fireEvent.change(screen.getByTestId('provider-id'), { target: { value: 'o' } });
    fireEvent.change(screen.getByTestId('provider-kind'), { target: { value: 'openai' } });
    fireEvent.change(screen.getByTestId('provider-model'), { target: { value: 'gpt-5' } });
    expect(screen.queryByTestId('provider-thinkingBudget')).toBeNull();
    fireEvent.change(screen.getByTestId('provider-reasoningEffort'), { target: { value: 'high' } });
    fireEvent.change(screen.getByTestId('provider-priceInput'), { target: { value: '1.25' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/input and output price/);
    fireEvent.change(screen.getByTestId('provider-priceOutput'), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    await waitFor(() => expect(core.callsOf('settings.providers.add')).toHaveLength(1));
    expect((core.callsOf('settings.providers.add')[0] as { provider: unknown }).provider).toEqual({ id: 'o', kind: 'openai', model: 'gpt-5', reasoning: { effort: 'high' }, pricing: { input: 1.25, output: 10 } });
  });
});

describe('AgentDefaults', () => {
  it('shows the saved mode and policy and saves a change', async () => {
    const core = new FakeCore({
      'settings.agent.get': () => ({ toolMode: 'auto', approvals: 'non-destructive' }),
      'settings.agent.set': (c) => ({ toolMode: 'auto', approvals: c.approvals ?? 'non-destructive' }),
    });
    core.render(<AgentDefaults />);
    expect(((await screen.findByTestId('tool-mode-auto')) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('approvals-ask'));
    await waitFor(() => expect((screen.getByTestId('approvals-ask') as HTMLInputElement).checked).toBe(true));
    expect(core.callsOf('settings.agent.set')).toEqual([{ approvals: 'ask' }]);
  });

  it('saves a dollar budget per session and per run, refuses a bad one, and empties one to remove it', async () => {
    let saved: Record<string, number> = { runBudgetUsd: 4 };
    const core = new FakeCore({
      'settings.agent.get': () => ({ toolMode: 'auto', approvals: 'non-destructive', ...saved }),
      'settings.agent.set': (c) => {
        for (const k of ['sessionBudgetUsd', 'runBudgetUsd'] as const) {
          if (c[k] === null) delete saved[k];
          else if (c[k] !== undefined) saved = { ...saved, [k]: c[k] };
        }
        return { toolMode: 'auto', approvals: 'non-destructive', ...saved };
      },
    });
    core.render(<AgentDefaults />);
    const run = (await screen.findByTestId('budget-runBudgetUsd')) as HTMLInputElement;
    expect(run.value).toBe('4');
    const session = screen.getByTestId('budget-sessionBudgetUsd') as HTMLInputElement;
    expect(session.value).toBe('');
    fireEvent.change(session, { target: { value: 'lots' } });
    fireEvent.click(screen.getByTestId('budget-sessionBudgetUsd-save'));
    await waitFor(() => expect(session.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByTestId('budgets').textContent).toMatch(/positive number of US dollars/);
    expect(core.callsOf('settings.agent.set')).toEqual([]);
    fireEvent.change(session, { target: { value: '$0.75' } });
    fireEvent.click(screen.getByTestId('budget-sessionBudgetUsd-save'));
    fireEvent.change(run, { target: { value: '' } });
    fireEvent.click(screen.getByTestId('budget-runBudgetUsd-save'));
    await waitFor(() => expect(core.callsOf('settings.agent.set')).toEqual([{ sessionBudgetUsd: 0.75 }, { runBudgetUsd: null }]));
    expect(saved).toEqual({ sessionBudgetUsd: 0.75 });
    expect(session.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('RewriteRules', () => {
  it('asks for a project first, then toggles a rule and the script review', async () => {
    let view: RunnerSettingsView = { project: '/p', file: '/p/.erasmus/settings.json', review: true, rules: [{ id: 'npm', description: 'npm → pnpm', enabled: true }, { id: 'npx', description: 'npx → pnpm dlx', enabled: true }], allowedHosts: [] };
    const core = new FakeCore({
      'settings.runners.get': () => view,
      'settings.runners.set': (c) => {
        view = { ...view, review: c.review ?? view.review, rules: view.rules.map((r) => ({ ...r, enabled: c.disable?.includes(r.id) ? false : c.enable?.includes(r.id) ? true : r.enabled })) };
        return view;
      },
    });
    core.render(<RewriteRules />);
    expect(screen.getByTestId('rules-empty')).toBeTruthy();
    cleanup();
    core.render(<RewriteRules project="/p" />);
    const npm = (await screen.findByTestId('rule-npm')) as HTMLInputElement;
    expect(npm.checked).toBe(true);
    fireEvent.click(npm);
    await waitFor(() => expect((screen.getByTestId('rule-npm') as HTMLInputElement).checked).toBe(false));
    fireEvent.click(screen.getByTestId('script-review'));
    await waitFor(() => expect((screen.getByTestId('script-review') as HTMLInputElement).checked).toBe(false));
    expect(core.callsOf('settings.runners.set')).toEqual([{ project: '/p', disable: ['npm'] }, { project: '/p', review: false }]);
  });
});

describe('AllowedHosts', () => {
  it('lists the project\'s allowed hosts, adds one, removes one, and shows why a bad entry is refused', async () => {
    let view: RunnerSettingsView = { project: '/p', file: '/p/.erasmus/settings.json', review: true, rules: [], allowedHosts: ['pypi.org'] };
    const core = new FakeCore({
      'settings.runners.get': () => view,
      'settings.runners.set': (c) => {
        if (c.allowHosts?.includes('https://x/')) throw new RpcError(-32602, '"https://x/" is not an allowed host: an allowed host is a host name');
        view = { ...view, allowedHosts: [...view.allowedHosts.filter((h) => !c.disallowHosts?.includes(h)), ...(c.allowHosts ?? [])] };
        return view;
      },
    });
    core.render(<AllowedHosts />);
    expect(screen.getByTestId('hosts-empty')).toBeTruthy();
    cleanup();
    core.render(<AllowedHosts project="/p" />);
    expect((await screen.findByTestId('hosts-list')).textContent).toContain('pypi.org');
    fireEvent.change(screen.getByTestId('host-new'), { target: { value: ' registry.npmjs.org ' } });
    fireEvent.click(screen.getByTestId('host-add'));
    await waitFor(() => expect(screen.getByTestId('hosts-list').textContent).toContain('registry.npmjs.org'));
    expect((screen.getByTestId('host-new') as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByTestId('host-remove-pypi.org'));
    await waitFor(() => expect(screen.getByTestId('hosts-list').textContent).not.toContain('pypi.org'));
    fireEvent.change(screen.getByTestId('host-new'), { target: { value: 'https://x/' } });
    fireEvent.click(screen.getByTestId('host-add'));
    expect((await screen.findByRole('alert')).textContent).toContain('is not an allowed host');
    expect(core.callsOf('settings.runners.set')).toEqual([
      { project: '/p', allowHosts: ['registry.npmjs.org'] },
      { project: '/p', disallowHosts: ['pypi.org'] },
      { project: '/p', allowHosts: ['https://x/'] },
    ]);
  });
});

describe('PromptSections', () => {
  it('opens a section with its shipped text, saves an override and resets it', async () => {
    let override: string | null = null;
    const core = new FakeCore({
      'settings.prompts.list': () => ({ dir: '/h/prompts', sections: [{ name: 'RULES', builtin: true, overridden: override !== null }] }),
      'settings.prompts.get': ({ name }) => ({ name, builtin: 'Shipped rules.', override }),
      'settings.prompts.set': ({ name, body }) => ((override = body), { name, builtin: true, overridden: true }),
      'settings.prompts.reset': () => ((override = null), { deleted: true }),
    });
    core.render(<PromptSections />);
    fireEvent.click(await screen.findByTestId('section-RULES'));
    const text = screen.getByTestId('section-text') as HTMLTextAreaElement;
    await waitFor(() => expect(text.value).toBe('Shipped rules.'));
    expect((screen.getByTestId('section-reset') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(text, { target: { value: 'My rules.' } });
    fireEvent.click(screen.getByTestId('section-save'));
    expect((await screen.findByRole('status')).textContent).toMatch(/Saved your version of RULES/);
    await waitFor(() => expect(screen.getByTestId('section-RULES').textContent).toContain('(overridden)'));
    expect(override).toBe('My rules.');
    await waitFor(() => expect((screen.getByTestId('section-reset') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('section-reset'));
    await waitFor(() => expect((screen.getByTestId('section-text') as HTMLTextAreaElement).value).toBe('Shipped rules.'));
    expect(override).toBeNull();
  });
});
