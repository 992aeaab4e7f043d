// A minimal App Router page, built by the same build: the baseline for the guest page's first-load JavaScript.

export default function MinimalPage() {
  return (
    <main id="main">
      <p>UnlockOS</p>
    </main>
  );
}
