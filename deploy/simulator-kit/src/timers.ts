/** Timers a simulator starts itself (a code or session running out), cleared when it closes. */
export class Timers {
  private readonly handles = new Set<NodeJS.Timeout>();

  after(ms: number, run: () => void): void {
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      run();
    }, ms);
    handle.unref();
    this.handles.add(handle);
  }

  clear(): void {
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}
