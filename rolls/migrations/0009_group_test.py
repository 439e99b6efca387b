import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0003_session_seed_and_commitment"),
        ("rolls", "0008_opposed_test"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="GroupTest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("difficulty", models.PositiveSmallIntegerField(default=0)),
                ("ease", models.SmallIntegerField(default=0)),
                ("members", models.JSONField(default=list)),
                ("revision", models.PositiveIntegerField(default=1)),
                ("status", models.CharField(choices=[("gathering", "gathering helpers"), ("rolling", "rolling"), ("resolved", "resolved"), ("cancelled", "called off")], default="gathering", max_length=10)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("result", models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="group_test", to="rolls.roll")),
                ("session", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="group_tests", to="campaigns.gamesession")),
                ("started_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "group test",
                "verbose_name_plural": "group tests",
                "ordering": ["-created_at", "-pk"],
            },
        ),
    ]
