import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Nav } from "./_components/nav";
import "./globals.css";

export const metadata: Metadata = {
  title: "teammem",
  description: "The team hub for Claude Code memory",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a href="/" className="brand">
            team<span>mem</span>
          </a>
          <Nav />
        </header>
        <main className="content">{children}</main>
      </body>
    </html>
  );
}
