// Placeholder shell: replaced by the real one (sign-in, project picker, test/live switch, menu).
export function App() {
  return <main>Bayad dashboard</main>;
}
