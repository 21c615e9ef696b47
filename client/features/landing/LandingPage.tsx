import { Link } from '@tanstack/react-router';

const features = [
  { title: 'Upload Videos', text: 'Share short videos of up to 2 minutes with the community.' },
  { title: 'Like & Engage', text: 'Show some love to the videos you enjoy.' },
  { title: 'Comment & Discuss', text: 'Join the conversation on every video.' },
  { title: 'Share with Friends', text: 'Send your favourite videos anywhere.' },
];

export function LandingPage() {
  return (
    <main className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Vidi</h1>
        <p>Share short videos, like, comment and win rewards.</p>
        <div className="actions">
          <Link to="/" className="button primary">Get Started</Link>
          <Link to="/" className="button">Login</Link>
        </div>
      </section>
      <section aria-label="Features" className="features">
        {features.map((f) => (
          <article key={f.title} className="feature">
            <h2>{f.title}</h2>
            <p>{f.text}</p>
          </article>
        ))}
      </section>
    </main>
  );
}
