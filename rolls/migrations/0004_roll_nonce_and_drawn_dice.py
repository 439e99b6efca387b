"""Fair dice: each roll keeps its nonce (and whether the server made it) and the dice it drew."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0003_applied_wounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="roll",
            name="nonce",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="roll",
            name="server_nonce",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="roll",
            name="drawn",
            field=models.JSONField(default=list),
        ),
    ]
