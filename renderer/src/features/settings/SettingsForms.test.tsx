import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProvidersState, RunnerSettingsView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { AgentDefaults } from './AgentDefaults';
import { PromptSections } from './PromptSections';
import { Providers } from './Providers';
import { RewriteRules } from './RewriteRules';

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

describe('AgentDefaults', () => {
  it('shows the saved mode and policy and saves a change', async () => {
    const core = new FakeCore({
      'settings.agent.get': () => ({ toolMode: 'auto', approvals: 'non-destructive' }),
      'settings.agent.set': (c) => ({ toolMode: 'auto', approvals: 'non-destructive', ...c }),
    });
    core.render(<AgentDefaults />);
    expect(((await screen.findByTestId('tool-mode-auto')) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('approvals-ask'));
    await waitFor(() => expect((screen.getByTestId('approvals-ask') as HTMLInputElement).checked).toBe(true));
    expect(core.callsOf('settings.agent.set')).toEqual([{ approvals: 'ask' }]);
  });
});

describe('RewriteRules', () => {
  it('asks for a project first, then toggles a rule and the script review', async () => {
    let view: RunnerSettingsView = { project: '/p', file: '/p/.erasmus/settings.json', review: true, rules: [{ id: 'npm', description: 'npm → pnpm', enabled: true }, { id: 'npx', description: 'npx → pnpm dlx', enabled: true }] };
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
