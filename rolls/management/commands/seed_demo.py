from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rolls.demo import DEMO_PASSWORD, GM, PLAYERS, seed_demo


class Command(BaseCommand):
    help = "Create the demo table (one campaign per rule system). Safe to run again."

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError("The demo table has well-known passwords; it is made only in DEBUG.")
        campaigns = seed_demo()
        self.stdout.write(f"Demo table ready: {len(campaigns)} campaigns.")
        logins = ", ".join((GM, *PLAYERS))
        self.stdout.write(f"Demo logins: {logins} (password: {DEMO_PASSWORD})")
