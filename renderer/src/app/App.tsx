import { Fragment, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ProjectSummary } from '../../../electron/contract/index';
import { useClient } from '../api/context';
import { useEvent } from '../api/useEvent';
import { ProjectView } from '../features/project/ProjectView';
import { WelcomeView } from '../features/project/WelcomeView';
import { ServersView } from '../features/servers/ServersView';
import { pendingApprovals } from '../features/session/sessionState';
import { SessionView } from '../features/session/SessionView';
import { SettingsView } from '../features/settings/SettingsView';
import { TimelineView } from '../features/timeline/TimelineView';
import { useStore } from '../ui/store';
import { Nav } from './Nav';
import { notificationPermission } from './notifier';
import { loadPlace, savePlace } from './place';
import { useServices } from './services';
import { ConnectionBanner, useConnectionStatus } from './ConnectionBanner';
import { StatusBar } from './StatusBar';
import { useTheme } from './theme';
import { Toasts } from './Toasts';
import { useToasts } from './useToasts';
import { viewForKey, type ViewId } from './views';
import { stepNamer } from '../features/terminal/stepOf';
import { askingStep, type Ask } from '../features/session/askingStep';
import { resyncLive } from '../features/session/Elicitations';
import { TerminalStore } from '../features/terminal/store';

const TerminalView = lazy(() => import('../features/terminal/TerminalView').then((m) => ({ default: m.TerminalView })));

type Info = { version: string; platform: string; home: string; face: 'desktop' | 'browser' | 'cli'; sandbox: { available: boolean; detail: string } };

/** The app shell: navigation, the current view, toasts and the status bar. */
export function App() {
  const client = useClient();
  const { run, sessions, elicitations } = useServices();
  const [info, setInfo] = useState<Info | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState<ViewId>('project');
  const [project, setProject] = useState<ProjectSummary | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [theme, setTheme] = useTheme(client);
  const connection = useConnectionStatus(client);
  const disconnected = connection !== 'connected';
  // Back from a dropped connection: the views read their state again (events sent meanwhile were missed).
  const [epoch, setEpoch] = useState(0);
  const was = useRef(connection);
  const [permission, setPermission] = useState(notificationPermission);
  const goToApproval = useCallback(() => {
    const s = Object.values(sessions.get().byId).find((x) => pendingApprovals(x).length > 0);
    const first = elicitations.get()[0];
    const owner = first ? sessions.ownerOf(first.server, first.approval?.cwd) : undefined;
    const target = s?.id ?? owner;
    if (target) setSessionId(target);
    setView('session');
  }, [sessions, elicitations]);
  const askingStepOf = useCallback((ask: Ask) => {
    const r = run.store.get();
    return askingStep(r.kind === 'run' ? r.view : null, (server) => sessions.ownerOf(server, ask.cwd), ask);
  }, [run, sessions]);
  const { toasts, dismiss, prune } = useToasts(client, info?.face, goToApproval, askingStepOf);
  const waiting = useStore(sessions, (s) => s);
  const runState = useStore(run.store, (s) => s);
  const stepOf = useMemo(() => stepNamer(runState.kind === 'run' ? runState.view : null), [runState]);
  const questions = useStore(elicitations, (e) => e.length);

  useEffect(() => {
    client.request('app.info', {}).then(setInfo, (e: Error) => setError(e.message));
  }, [client]);
  // A reload or a new window comes back where the user was: the project (and its run), the view, the session.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const place = loadPlace();
    if (!place.project) return;
    client.request('project.open', { path: place.project }).then(
      (p) => {
        setProject((now) => now ?? p);
        void run.attach(p.path);
        if (place.sessionId) setSessionId((now) => now ?? place.sessionId!);
        if (place.view) setView((now) => (now === 'project' ? place.view! : now));
      },
      () => savePlace({}), // the folder is gone or unreadable: start from the welcome view
    );
  }, [client, run]);
  useEffect(() => {
    if (restored.current) savePlace({ ...(project ? { project: project.path } : {}), view, ...(sessionId ? { sessionId } : {}) });
  }, [project, view, sessionId]);
  // The terminals' state (tabs, output not on screen yet) lives here from the start; the terminal view and
  // xterm (a chunk of their own) load on the first visit to Terminal or when a terminal opens, not with the first view.
  const terminals = useMemo(() => new TerminalStore(client), [client]);
  useEffect(() => {
    void terminals.start();
    return () => terminals.dispose();
  }, [terminals]);
  const terminalTabs = useSyncExternalStore(terminals.subscribe, () => terminals.getSnapshot().tabs.length);
  const [terminalLoaded, setTerminalLoaded] = useState(false);
  if (!terminalLoaded && (view === 'terminal' || terminalTabs > 0)) setTerminalLoaded(true);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const v = viewForKey(e);
      if (v) {
        e.preventDefault();
        setView(v);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The open project follows the core, once per folder, and never moves the user to another view: the core
  // announces `project.opened` before it answers `project.open`, so the answer reaches the welcome view after
  // the project view has replaced it, possibly after the user went on to another view (Alt+3 right after the
  // facts show). Switching to Project on that late answer was the bounce from Sessions back to Project.
  const projectPath = useRef<string | null>(null);
  const followProject = useCallback(
    (p: ProjectSummary) => {
      // The same folder again (opened once more, or made a repository): its facts are new, its run the same.
      if (projectPath.current === p.path) return setProject(p);
      projectPath.current = p.path;
      setProject(p);
      void run.attach(p.path);
    },
    [run],
  );
  // A folder opened here (the welcome view) or elsewhere (the desktop's drop, the CLI).
  useEvent('project.opened', followProject);

  useEffect(() => {
    if (was.current === 'reconnecting' && connection === 'connected') {
      setEpoch((n) => n + 1);
      // A restarted core has no project open: open it again (its toolsets follow), then read its run.
      if (project) void client.request('project.open', { path: project.path }).catch(() => undefined).then(() => run.attach(project.path));
      // The terminals' output printed meanwhile, and their exits.
      void terminals.resync();
      void resyncLive({ sessions, elicitations }).then(
        () => prune((key) => elicitations.get().some((r) => r.id === key) || Object.values(sessions.get().byId).some((s) => pendingApprovals(s).some((a) => `${s.id}:${a.id}` === key))),
        () => undefined,
      );
    }
    was.current = connection;
  }, [connection, project, run, sessions, elicitations, prune, client, terminals]);

  const approvals = Object.values(waiting.byId).reduce((n, s) => n + pendingApprovals(s).length, 0) + questions;
  const openSession = (id: string) => {
    setSessionId(id);
    setView('session');
  };

  return (
    <div className="flex h-full flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="flex items-center gap-4 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h1 className="text-lg font-semibold" data-testid="app-title">Erasmus</h1>
        <Nav current={view} onSelect={setView} badges={{ session: approvals }} />
        {project ? <span className="ml-auto truncate font-mono text-xs text-slate-600 dark:text-slate-400" title={project.path}>{project.name}</span> : null}
      </header>
      {connection !== 'connected' ? <ConnectionBanner face={info?.face} status={connection} /> : null}
      <main className={`relative min-h-0 flex-1 overflow-auto p-6 ${disconnected ? 'opacity-60' : ''}`} data-testid="app-shell" data-view={view} inert={disconnected} aria-disabled={disconnected || undefined}>
        {error ? <p role="alert" className="text-red-700 dark:text-red-300">Cannot reach the Erasmus core: {error}</p> : null}
        <Fragment key={epoch}>
        {view === 'project' ? (
          project ? (
            <ProjectView project={project} onClose={() => { projectPath.current = null; setProject(null); run.reset(); }} onOpenTimeline={() => setView('timeline')} onOpenSettings={() => setView('settings')} onOpenServers={() => setView('servers')} />
          ) : (
            <WelcomeView onOpened={followProject} />
          )
        ) : null}
        {view === 'timeline' ? <TimelineView onOpenSession={openSession} /> : null}
        {view === 'session' ? <SessionView selected={sessionId} onSelect={setSessionId} project={project?.path} /> : null}
        {view === 'servers' ? <ServersView /> : null}
        {view === 'settings' ? (
          <SettingsView project={project?.path} theme={theme} onTheme={setTheme} notifications={permission} onRequestNotifications={() => void Notification.requestPermission().then(setPermission)} />
        ) : null}
        </Fragment>
        {/* Once loaded the terminal stays mounted, so every tab's xterm takes its output as it comes. */}
        <div className={view === 'terminal' ? 'absolute inset-0' : 'hidden'} data-testid="terminal-pane">
          {terminalLoaded ? (
            <Suspense fallback={<p className="p-4 text-sm text-slate-600 dark:text-slate-400">Loading the terminal…</p>}>
              <TerminalView client={client} store={terminals} cwd={project?.path} stepOf={stepOf} />
            </Suspense>
          ) : null}
        </div>
      </main>
      {/* In the Sessions view the waiting card itself is in sight and focused, and so is a server's question on the Timeline: its toast would only cover it. */}
      <Toasts toasts={view === 'session' ? toasts.filter((t) => !t.sticky) : view === 'timeline' ? toasts.filter((t) => !(t.sticky && elicitations.get().some((r) => r.id === t.key))) : toasts} onDismiss={dismiss} />
      <StatusBar face={connection === 'lost' ? 'disconnected' : connection === 'reconnecting' ? 'disconnected — reconnecting…' : info ? `Erasmus ${info.version} · ${info.face} · ${info.home}` : 'connecting…'} onApprovals={goToApproval} disconnected={disconnected} sandbox={info?.sandbox} />
    </div>
  );
}
