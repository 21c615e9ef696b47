import { Link } from '@tanstack/react-router';
import { CommentIcon, HeartIcon, ShareIcon, UploadIcon } from '#client/ui/icons';

const features = [
  { title: 'Upload Videos', text: 'Share short videos of up to 2 minutes with the community.', Icon: UploadIcon },
  { title: 'Like & Engage', text: 'Show some love to the videos you enjoy.', Icon: HeartIcon },
  { title: 'Comment & Discuss', text: 'Join the conversation on every video.', Icon: CommentIcon },
  { title: 'Share with Friends', text: 'Send your favourite videos anywhere.', Icon: ShareIcon },
];

export function LandingPage() {
  return (
    <main className="landing" id="main">
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Vidi</h1>
        <p>Share short videos, like, comment and win rewards.</p>
        <div className="actions">
          <Link to="/signup" className="button primary">
            Get Started
          </Link>
          <Link to="/login" className="button">
            Login
          </Link>
        </div>
      </section>
      <section aria-label="Features" className="features">
        {features.map(({ title, text, Icon }) => (
          <article key={title} className="feature">
            <Icon size={28} className="feature-icon" />
            <h2>{title}</h2>
            <p>{text}</p>
          </article>
        ))}
      </section>
      <section aria-label="Join" className="cta">
        <p>Ready to share your moments?</p>
        <Link to="/signup" className="button primary">
          Sign Up Now
        </Link>
      </section>
      <footer className="landing-footer">
        <Link to="/admin/login">Admin Access</Link>
      </footer>
    </main>
  );
}
