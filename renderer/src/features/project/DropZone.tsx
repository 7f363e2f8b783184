import { useState, type DragEvent } from 'react';

/** Where a folder can be dropped; `onPath` gets its absolute path, `onNoPath` when the face cannot tell it (browser mode). */
export function DropZone({ onPath, onNoPath, pathForFile }: { onPath: (path: string) => void; onNoPath: (name: string) => void; pathForFile?: (file: File) => string }) {
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (!file) return;
    const path = pathForFile?.(file) ?? '';
    if (path) onPath(path);
    else onNoPath(file.name);
  };
  return (
    <div
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`rounded-xl border-2 border-dashed p-10 text-center transition-colors ${over ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-slate-300 dark:border-slate-700'}`}
    >
      <p className="text-lg font-medium">Drop a project folder here</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Erasmus looks at what it contains, then starts or resumes its workflow.</p>
    </div>
  );
}
